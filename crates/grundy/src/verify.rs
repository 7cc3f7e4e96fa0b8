//! The certificate check of generalised Sprague–Grundy values, apart from the solver.
//!
//! [`ValueTable`] holds claimed values (read back from the `V VALUE` table with
//! [`ValueTable::read`], or taken from any source), and [`verify_values`] checks them
//! against a graph by the defining conditions of the γ function alone.

use std::fmt;
use std::io::BufRead;

use gamegraph_graph::table::{FieldError, Rows, found};
use gamegraph_graph::{Graph, Position, TableError, Vertex};

use crate::{BadValue, LoopyValues, Nimber, Value};

/// The label of an infinite value in a [`ValueTable`].
const INFINITE: u64 = u64::MAX;

/// Claimed values of the generalised Sprague–Grundy function, one per vertex: a finite
/// value, or ∞(K) with its set K (sorted, without repeats).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValueTable {
    /// The finite value, or [`INFINITE`].
    label: Vec<u64>,
    /// K of vertex `v` is `k_values[k_offsets[v]..k_offsets[v + 1]]`.
    k_offsets: Vec<usize>,
    k_values: Vec<u64>,
}

impl ValueTable {
    /// An empty table (no vertex).
    pub fn new() -> ValueTable {
        ValueTable { label: Vec::new(), k_offsets: vec![0], k_values: Vec::new() }
    }

    /// Appends the value of the next vertex.
    ///
    /// # Errors
    /// A finite value must be below `u64::MAX` ([`BadValue::Reserved`]), and the set of an
    /// infinite one sorted without repeats ([`BadValue::Unsorted`]); nothing is appended
    /// otherwise.
    pub fn push(&mut self, value: &Value) -> Result<(), BadValue> {
        if self.k_offsets.is_empty() {
            self.k_offsets.push(0);
        }
        match value {
            Value::Finite(x) if x.0 == INFINITE => return Err(BadValue::Reserved),
            Value::Finite(x) => self.label.push(x.0),
            Value::Infinite(k) => {
                if k.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(BadValue::Unsorted);
                }
                self.label.push(INFINITE);
                self.k_values.extend(k.iter().map(|x| x.0));
            }
        }
        self.k_offsets.push(self.k_values.len());
        Ok(())
    }

    /// The values [`loopy_grundy`](crate::loopy_grundy) computed.
    pub fn from_loopy(values: &LoopyValues) -> ValueTable {
        let mut t = ValueTable::new();
        for i in 0..values.len() {
            let v = Vertex::from_index(i);
            match values.finite(v) {
                Some(x) => t.label.push(x.0),
                None => {
                    t.label.push(INFINITE);
                    t.k_values.extend_from_slice(values.infinite_set(v));
                }
            }
            t.k_offsets.push(t.k_values.len());
        }
        t
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.label.len()
    }

    /// `true` when there is no vertex.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// The value of vertex `v`.
    ///
    /// # Panics
    /// If `v` is not below [`len`](Self::len).
    pub fn value(&self, v: Vertex) -> Value {
        match self.label[v.index()] {
            INFINITE => Value::Infinite(self.set(v.index()).iter().map(|&x| Nimber(x)).collect()),
            x => Value::Finite(Nimber(x)),
        }
    }

    /// Counts of the finite and the infinite values.
    pub fn counts(&self) -> (usize, usize) {
        let infinite = self.label.iter().filter(|&&x| x == INFINITE).count();
        (self.label.len() - infinite, infinite)
    }

    /// What [`verify_values`] proved of this table on `g`, in the words `verify grundy`
    /// prints after "ok: ".
    pub fn describe(&self, g: &Graph) -> String {
        let (finite, infinite) = self.counts();
        format!(
            "{} vertices, {} arcs: {finite} finite and {infinite} infinite values; the mex, \
             set, escape and counter rules hold",
            g.num_vertices(),
            g.num_arcs()
        )
    }

    fn set(&self, v: usize) -> &[u64] {
        &self.k_values[self.k_offsets[v]..self.k_offsets[v + 1]]
    }

    /// Reads the table `gamegraph grundy --all` prints for a graph of `n` vertices: one
    /// line `V VALUE` per vertex, the vertices `1, 2, …, n` in this order, VALUE a number
    /// or `inf{K}` with K a comma-separated increasing list of numbers (`inf{}`,
    /// `inf{0,2}`). Tokens are separated by spaces or tabs; blank lines are skipped.
    ///
    /// # Errors
    /// The first token that does not fit, with its line and column, or a read error.
    ///
    /// # Complexity
    /// O(length of the text) time.
    ///
    /// # Example
    /// ```
    /// use gamegraph_grundy::{Nimber, Value, ValueTable};
    /// use gamegraph_graph::{Located, Vertex};
    /// let t = ValueTable::read("1 inf{0}\n2 0\n".as_bytes(), 2).unwrap();
    /// assert_eq!(t.value(Vertex(0)), Value::Infinite(vec![Nimber(0)]));
    /// let e = ValueTable::read("1 inf{2,0}\n2 0\n".as_bytes(), 2).unwrap_err();
    /// assert_eq!(e.to_string(), "expected a number above 2, found \"0\"");
    /// assert_eq!(e.position(), Some(gamegraph_graph::Position::new(1, 9)));
    /// ```
    pub fn read(reader: impl BufRead, n: usize) -> Result<ValueTable, TableError> {
        let mut t = ValueTable::new();
        let mut rows = Rows::new(reader);
        while let Some(mut row) = rows.next_row()? {
            row.vertex(t.len(), n)?;
            let (at, tok) = row.next_field();
            let value = match tok {
                Some(x) if x.starts_with(b"inf{") => parse_set(x).map_err(|(offset, error)| {
                    TableError::Field { position: within(at, x, offset), error }
                })?,
                _ => match parse_u64(tok).filter(|&x| x != INFINITE) {
                    Some(x) => Value::Finite(Nimber(x)),
                    None => return Err(row.error(at, "a value: a number or `inf{...}`", tok)),
                },
            };
            // Cannot fail: the value was read as a number below INFINITE or an increasing set.
            if let Err(e) = t.push(&value) {
                return Err(row.error(at, "a value", Some(e.to_string().as_bytes())));
            }
            let (at, tok) = row.next_field();
            if tok.is_some() {
                return Err(row.error(at, "end of line", tok));
            }
        }
        if t.len() < n {
            let expected = format!("vertex {} (the graph has {n} vertices)", t.len() + 1);
            let error = FieldError { expected, found: "end of input".into() };
            return Err(TableError::Field { position: rows.end(), error });
        }
        Ok(t)
    }
}

/// The position of byte `offset` of `token`, which is at `at`.
fn within(at: Position, token: &[u8], offset: usize) -> Position {
    let chars = token[..offset].iter().filter(|&&b| b & 0xc0 != 0x80).count();
    Position::new(at.line, at.column + chars as u64)
}

/// One value as the table prints it: a number, or `inf{K}` with K increasing.
///
/// # Errors
/// What was expected, and what was found.
///
/// ```
/// use gamegraph_grundy::{Nimber, Value, parse_value};
/// assert_eq!(parse_value("inf{0,2}"), Ok(Value::Infinite(vec![Nimber(0), Nimber(2)])));
/// assert_eq!(parse_value("3"), Ok(Value::Finite(Nimber(3))));
/// let e = parse_value("inf{2,0}").unwrap_err();
/// assert_eq!(e.to_string(), "expected a number above 2, found \"0\"");
/// ```
pub fn parse_value(text: &str) -> Result<Value, FieldError> {
    let t = text.as_bytes();
    if t.starts_with(b"inf{") {
        return parse_set(t).map_err(|(_, error)| error);
    }
    match parse_u64(Some(t)).filter(|&x| x != INFINITE) {
        Some(x) => Ok(Value::Finite(Nimber(x))),
        None => Err(FieldError::new("a value: a number or `inf{...}`", Some(t))),
    }
}

/// `inf{a,b,…}`: the value, or the byte offset in the token and what is wrong there.
fn parse_set(token: &[u8]) -> Result<Value, (usize, FieldError)> {
    let inner = &token[4..];
    let Some(close) = inner.iter().position(|&b| b == b'}') else {
        let error = FieldError { expected: "`}`".into(), found: "end of the value".into() };
        return Err((token.len(), error));
    };
    if close + 1 != inner.len() {
        return Err((
            4 + close + 1,
            FieldError::new("end of the value", Some(&inner[close + 1..])),
        ));
    }
    let mut set: Vec<Nimber> = Vec::new();
    if close == 0 {
        return Ok(Value::Infinite(set));
    }
    let mut at = 4;
    for item in inner[..close].split(|&b| b == b',') {
        let x = parse_u64(Some(item));
        let expected = match set.last() {
            Some(p) => format!("a number above {}", p.0),
            None => "a number".to_owned(),
        };
        match x {
            Some(x) if set.last().is_none_or(|p| p.0 < x) => set.push(Nimber(x)),
            _ => return Err((at, FieldError { expected, found: found_item(item) })),
        }
        at += item.len() + 1;
    }
    Ok(Value::Infinite(set))
}

/// An item of a set for a message: an empty one (`inf{1,,2}`) is `nothing`.
fn found_item(item: &[u8]) -> String {
    if item.is_empty() { "nothing".to_owned() } else { found(Some(item)) }
}

fn parse_u64(t: Option<&[u8]>) -> Option<u64> {
    t.and_then(gamegraph_graph::table::number)
}

/// A violated condition of the γ certificate, found by [`verify_values`]. Vertices are
/// 0-based; the messages print them 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueError {
    /// The table has a different number of vertices than the graph.
    SizeMismatch {
        /// Vertices of the graph.
        graph: usize,
        /// Vertices of the table.
        table: usize,
    },
    /// Condition A: a finite value that is not the mex of the finite values of the
    /// followers.
    NotMex {
        /// The vertex.
        vertex: Vertex,
        /// Its value in the table.
        found: u64,
        /// The mex of its followers' finite values.
        mex: u64,
    },
    /// The set K of an infinite value is not the set of its followers' finite values.
    WrongSet {
        /// The vertex.
        vertex: Vertex,
        /// The finite values of its followers, sorted, without repeats.
        followers: Vec<u64>,
    },
    /// Condition C: an infinite value without a follower ∞(L) whose L lacks mex K.
    NoInfiniteEscape {
        /// The vertex.
        vertex: Vertex,
        /// mex K, the value it could otherwise have.
        mex: u64,
    },
    /// Condition B, locally: a finite value `a` with a follower of larger (or infinite)
    /// value that has no follower of value `a`.
    NoReply {
        /// The vertex of value `a`.
        vertex: Vertex,
        /// Its value `a`.
        value: u64,
        /// The follower without a reply.
        follower: Vertex,
    },
    /// Condition B with its counter function: the vertices of value `a` that answer
    /// each other's larger followers only justify one another round a cycle, so no
    /// counter function exists.
    NoCounter {
        /// The smallest such vertex.
        vertex: Vertex,
        /// Its value `a`.
        value: u64,
        /// A follower of larger value whose replies of value `a` are all unfounded.
        follower: Vertex,
    },
}

impl ValueError {
    /// The vertex the violation is at (`None` for a size mismatch).
    pub fn vertex(&self) -> Option<Vertex> {
        match self {
            ValueError::SizeMismatch { .. } => None,
            ValueError::NotMex { vertex, .. }
            | ValueError::WrongSet { vertex, .. }
            | ValueError::NoInfiniteEscape { vertex, .. }
            | ValueError::NoReply { vertex, .. }
            | ValueError::NoCounter { vertex, .. } => Some(*vertex),
        }
    }

    /// A short name of the violated rule: `size`, `mex`, `infinite-set`,
    /// `infinite-escape`, `reply` or `counter`.
    pub fn rule(&self) -> &'static str {
        match self {
            ValueError::SizeMismatch { .. } => "size",
            ValueError::NotMex { .. } => "mex",
            ValueError::WrongSet { .. } => "infinite-set",
            ValueError::NoInfiniteEscape { .. } => "infinite-escape",
            ValueError::NoReply { .. } => "reply",
            ValueError::NoCounter { .. } => "counter",
        }
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::SizeMismatch { graph, table } => {
                write!(f, "the graph has {graph} vertices but the table has {table}")
            }
            ValueError::NotMex { vertex, found, mex } => write!(
                f,
                "vertex {} has value {found} but the mex of its followers' finite values is {mex}",
                vertex.one_based()
            ),
            ValueError::WrongSet { vertex, followers } => {
                let list: Vec<String> = followers.iter().map(u64::to_string).collect();
                write!(
                    f,
                    "vertex {} is infinite but its set is not its followers' finite values {{{}}}",
                    vertex.one_based(),
                    list.join(",")
                )
            }
            ValueError::NoInfiniteEscape { vertex, mex } => write!(
                f,
                "vertex {} is infinite but no infinite follower inf{{L}} has {mex} (the mex of its \
                 set) outside L: its value would be {mex}",
                vertex.one_based()
            ),
            ValueError::NoReply { vertex, value, follower } => write!(
                f,
                "vertex {} has value {value} but its follower {} of larger value has no follower \
                 of value {value}",
                vertex.one_based(),
                follower.one_based()
            ),
            ValueError::NoCounter { vertex, value, follower } => write!(
                f,
                "vertex {} has value {value} but the replies of value {value} from its follower {} \
                 of larger value only justify each other round a cycle (no counter function)",
                vertex.one_based(),
                follower.one_based()
            ),
        }
    }
}

impl std::error::Error for ValueError {}

/// Checks that `table` is the generalised Sprague–Grundy function γ of `g` (Smith;
/// Fraenkel–Yesha), from its definition alone:
/// - **mex** (condition A): a finite γ(u) is the mex of the finite values among γ of the
///   followers of u;
/// - **infinite-set**: an infinite γ(u) = ∞(K) carries K = the set of finite values
///   among its followers (the set the solver prints);
/// - **infinite-escape** (condition C): an infinite γ(u) = ∞(K) has a follower v with
///   γ(v) = ∞(L) and mex K ∉ L;
/// - **reply** and **counter** (condition B): if γ(u) = a is finite and a follower v
///   has γ(v) > a (∞ included), v has a follower w with γ(w) = a and c(w) < c(u), for
///   some counter function c. The counter function is not part of the table; it is
///   rebuilt here: for each a, the vertices of value a are taken in an order in which
///   each one's larger followers already have a reply of value a taken before it
///   (a retrograde propagation). Such an order exists exactly when some counter
///   function does; when it does not, `reply` names a follower with no reply of value a
///   at all, and `counter` one whose replies only justify each other round a cycle.
///
/// **What it proves.** Fraenkel and Yesha show that γ is the *unique* function with a
/// counter function satisfying A, B and C, so a table that passes is exactly γ: finite
/// values, the infinite positions, and (with the infinite-set rule) their sets K.
/// Conditions A, C and "a reply exists" alone are not enough: on the 2-cycle 1 ⇄ 2
/// the values 0, 1 satisfy them but γ is ∞ on both; the counter rule rejects them.
///
/// # Errors
/// The first violated condition: the local ones (mex, infinite-set, infinite-escape) by
/// vertex order, then the condition B, by increasing value a.
///
/// # Complexity
/// O((V + E) · (1 + r)) time where r is the largest finite value (O(V + E) for the local
/// conditions; a vertex takes part in the propagation of each value below its own and
/// each value in its set), O(V) extra space.
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{loopy_grundy, verify_values, Nimber, Value, ValueTable};
///
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(0))]).unwrap();
/// verify_values(&g, &ValueTable::from_loopy(&loopy_grundy(&g))).unwrap();
/// let mut wrong = ValueTable::new();
/// wrong.push(&Value::Finite(Nimber(1))).unwrap();
/// wrong.push(&Value::Finite(Nimber(0))).unwrap();
/// assert_eq!(verify_values(&g, &wrong).unwrap_err().rule(), "counter");
/// ```
///
/// # Reference
/// A. S. Fraenkel and Y. Yesha, *The generalized Sprague–Grundy function and its
/// invariance under certain mappings*, J. Combin. Theory A 43 (1986) 165–177.
pub fn verify_values(g: &Graph, table: &ValueTable) -> Result<(), ValueError> {
    let n = g.num_vertices();
    if table.len() != n {
        return Err(ValueError::SizeMismatch { graph: n, table: table.len() });
    }
    check_local(g, table)?;
    check_counter(g, table)
}

/// Conditions A, the sets K and C, vertex by vertex.
fn check_local(g: &Graph, t: &ValueTable) -> Result<(), ValueError> {
    let label = &t.label;
    let max_degree = g.vertices().map(|v| g.out_degree(v)).max().unwrap_or(0);
    // seen[x] == stamp: the value x (or, for a set, its x-th element) has been met.
    let mut seen = vec![0u64; max_degree + 2];
    for (stamp, u) in (1u64..).zip(g.vertices()) {
        let succ = g.successors(u);
        let a = label[u.index()];
        if a != INFINITE {
            for &w in succ {
                let x = label[w.index()];
                if x <= succ.len() as u64 {
                    seen[x as usize] = stamp;
                }
            }
            let mex = (0..).find(|&x| seen[x] != stamp).unwrap_or(0) as u64;
            if mex != a {
                return Err(ValueError::NotMex { vertex: u, found: a, mex });
            }
            continue;
        }
        let k = t.set(u.index());
        let mut hits = 0;
        let mut exact = k.len() <= succ.len();
        for &w in succ {
            let x = label[w.index()];
            if x == INFINITE || !exact {
                continue;
            }
            match k.binary_search(&x) {
                Ok(i) if seen[i] != stamp => {
                    seen[i] = stamp;
                    hits += 1;
                }
                Ok(_) => {}
                Err(_) => exact = false,
            }
        }
        if !exact || hits != k.len() {
            let mut followers: Vec<u64> =
                succ.iter().map(|w| label[w.index()]).filter(|&x| x != INFINITE).collect();
            followers.sort_unstable();
            followers.dedup();
            return Err(ValueError::WrongSet { vertex: u, followers });
        }
        let mex = k.iter().zip(0u64..).find(|(x, i)| *x != i).map_or(k.len() as u64, |(_, i)| i);
        let escape = succ
            .iter()
            .any(|w| label[w.index()] == INFINITE && t.set(w.index()).binary_search(&mex).is_err());
        if !escape {
            return Err(ValueError::NoInfiniteEscape { vertex: u, mex });
        }
    }
    Ok(())
}

/// Condition B: rebuilds a counter function value by value, or names where none exists.
fn check_counter(g: &Graph, t: &ValueTable) -> Result<(), ValueError> {
    let label = &t.label;
    let n = g.num_vertices();
    // The finite vertices grouped by value (counting sort; after the mex rule every
    // finite value is at most its vertex's out-degree).
    let max = label.iter().copied().filter(|&x| x != INFINITE).max();
    let Some(max) = max else { return Ok(()) };
    let mut start = vec![0usize; max as usize + 2];
    for &x in label.iter().filter(|&&x| x != INFINITE) {
        start[x as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut by_value = vec![Vertex(0); start[max as usize + 1]];
    for u in g.vertices() {
        let x = label[u.index()];
        if x != INFINITE {
            by_value[fill[x as usize]] = u;
            fill[x as usize] += 1;
        }
    }
    drop(fill);
    // need[u]: the arcs from u to a larger follower that has no founded reply yet.
    let mut need: Vec<usize> = g
        .vertices()
        .map(|u| {
            let a = label[u.index()];
            if a == INFINITE {
                0
            } else {
                g.successors(u).iter().filter(|w| label[w.index()] > a).count()
            }
        })
        .collect();
    // answered[v] == a + 1: v has a founded reply of value a.
    let mut answered = vec![0u64; n];
    let mut founded = vec![false; n];
    let mut queue = Vec::new();
    for a in 0..=max {
        let class = &by_value[start[a as usize]..start[a as usize + 1]];
        queue.extend(class.iter().copied().filter(|u| need[u.index()] == 0));
        while let Some(w) = queue.pop() {
            founded[w.index()] = true;
            for &v in g.predecessors(w) {
                if label[v.index()] <= a || answered[v.index()] == a + 1 {
                    continue;
                }
                answered[v.index()] = a + 1;
                for &u in g.predecessors(v) {
                    if label[u.index()] == a {
                        need[u.index()] -= 1;
                        if need[u.index()] == 0 {
                            queue.push(u);
                        }
                    }
                }
            }
        }
        if let Some(&u) = class.iter().filter(|u| !founded[u.index()]).min() {
            let follower = *g
                .successors(u)
                .iter()
                .filter(|v| label[v.index()] > a && answered[v.index()] != a + 1)
                .min()
                .expect("an unfounded vertex has a follower without a founded reply");
            let has_reply = g.successors(follower).iter().any(|w| label[w.index()] == a);
            return Err(if has_reply {
                ValueError::NoCounter { vertex: u, value: a, follower }
            } else {
                ValueError::NoReply { vertex: u, value: a, follower }
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loopy_grundy;
    use gamegraph_graph::Located;
    use gamegraph_testkit::{SplitMix64, graph, random_graph};

    fn table(values: &[Option<&[u64]>], finite: &[u64]) -> ValueTable {
        // values[i] = None: finite[i]; Some(k): inf{k}.
        let mut t = ValueTable::new();
        for (i, v) in values.iter().enumerate() {
            let value = match v {
                None => Value::Finite(Nimber(finite[i])),
                Some(k) => Value::Infinite(k.iter().map(|&x| Nimber(x)).collect()),
            };
            t.push(&value).unwrap();
        }
        t
    }

    fn text(g: &Graph) -> String {
        crate::render::values(&loopy_grundy(g))
    }

    #[test]
    fn accepts_the_solver_and_rejects_each_single_tamper() {
        let mut rng = SplitMix64::new(11);
        let mut rejected = 0;
        for round in 0..300 {
            let n = 2 + rng.below(13) as usize;
            let m = rng.below(3 * n as u64 + 1) as usize;
            let g = random_graph(&mut rng, n, m, round % 3 == 0);
            let values = loopy_grundy(&g);
            let t = ValueTable::from_loopy(&values);
            assert_eq!(verify_values(&g, &t), Ok(()), "{g:?}");
            let read = ValueTable::read(text(&g).as_bytes(), n).unwrap();
            assert_eq!(read, t);
            // One value changed: finite to another finite or to ∞ (with the right set),
            // infinite to a finite.
            let v = Vertex::from_index(rng.below(n as u64) as usize);
            let mut tampered = ValueTable::new();
            for u in g.vertices() {
                let mut value = t.value(u);
                if u == v {
                    value = match value {
                        Value::Finite(x) => match rng.below(3) {
                            0 => Value::Finite(Nimber(x.0 + 1 + rng.below(3))),
                            1 if x.0 > 0 => Value::Finite(Nimber(rng.below(x.0))),
                            _ => {
                                let mut k: Vec<Nimber> = g
                                    .successors(u)
                                    .iter()
                                    .filter_map(|&w| values.finite(w))
                                    .collect();
                                k.sort_unstable();
                                k.dedup();
                                Value::Infinite(k)
                            }
                        },
                        Value::Infinite(_) => Value::Finite(Nimber(rng.below(3))),
                    };
                }
                tampered.push(&value).unwrap();
            }
            if tampered != t {
                assert!(verify_values(&g, &tampered).is_err(), "{g:?}\n{tampered:?}");
                rejected += 1;
            }
        }
        assert!(rejected > 200, "{rejected}");
    }

    #[test]
    fn names_each_rule() {
        // 0 <-> 1: γ = ∞{} on both.
        let g = graph(2, &[(0, 1), (1, 0)]);
        assert_eq!(verify_values(&g, &table(&[Some(&[]), Some(&[])], &[])), Ok(()));
        let e = verify_values(&g, &table(&[None, None], &[1, 0])).unwrap_err();
        assert_eq!(e, ValueError::NoCounter { vertex: Vertex(1), value: 0, follower: Vertex(0) });
        assert_eq!(
            e.to_string(),
            "vertex 2 has value 0 but the replies of value 0 from its follower 1 of larger value \
             only justify each other round a cycle (no counter function)"
        );
        let e = verify_values(&g, &table(&[None, None], &[0, 0])).unwrap_err();
        assert_eq!(e, ValueError::NotMex { vertex: Vertex(0), found: 0, mex: 1 });
        // 0 -> 0, 0 -> 1: γ(1) = 0, γ(0) = ∞{0}.
        let g = graph(2, &[(0, 0), (0, 1)]);
        assert_eq!(verify_values(&g, &table(&[Some(&[0]), None], &[0, 0])), Ok(()));
        let e = verify_values(&g, &table(&[Some(&[]), None], &[0, 0])).unwrap_err();
        assert_eq!(e, ValueError::WrongSet { vertex: Vertex(0), followers: vec![0] });
        assert_eq!(e.rule(), "infinite-set");
        // 0 -> 1 -> 2: a terminal cannot be infinite (no escape).
        let g = graph(3, &[(0, 1), (1, 2)]);
        let e = verify_values(&g, &table(&[None, None, Some(&[])], &[0, 1, 0])).unwrap_err();
        assert_eq!(e, ValueError::NotMex { vertex: Vertex(1), found: 1, mex: 0 });
        let e = verify_values(&g, &table(&[Some(&[]), Some(&[]), Some(&[])], &[])).unwrap_err();
        assert_eq!(e, ValueError::NoInfiniteEscape { vertex: Vertex(2), mex: 0 });
        // 0 -> 1, 1 -> 2, 1 -> 0... a reply missing: 0 -> 1 (value 2?) checked by mex; a
        // larger infinite follower without reply: 0 -> 1, 1 -> 1 with γ(0) = 0 is wrong
        // (γ(1) = ∞{}, γ(0) = ∞{}: 1 has no follower of value 0).
        let g = graph(2, &[(0, 1), (1, 1)]);
        assert_eq!(verify_values(&g, &table(&[Some(&[]), Some(&[])], &[])), Ok(()));
        let e = verify_values(&g, &table(&[None, Some(&[])], &[0, 0])).unwrap_err();
        assert_eq!(e, ValueError::NoReply { vertex: Vertex(0), value: 0, follower: Vertex(1) });
        assert_eq!(verify_values(&g, &table(&[None], &[0])).unwrap_err().rule(), "size");
    }

    #[test]
    fn reads_the_printed_table_and_names_bad_tokens() {
        let bad = |s: &str| {
            let e = ValueTable::read(s.as_bytes(), 2).unwrap_err();
            (e.position().map(|p| (p.line, p.column)), e.to_string())
        };
        assert!(ValueTable::read("1 0\n\n2 inf{}\r\n".as_bytes(), 2).is_ok());
        assert_eq!(
            bad("1 0\n"),
            (
                Some((2, 1)),
                "expected vertex 2 (the graph has 2 vertices), found end of input".into()
            )
        );
        assert_eq!(
            bad("1 0\n2 0\n3 0\n"),
            (Some((3, 1)), "expected end of input: the graph has 2 vertices, found \"3\"".into())
        );
        assert_eq!(bad("2 0\n"), (Some((1, 1)), "expected vertex 1, found \"2\"".into()));
        assert_eq!(
            bad("1 x\n"),
            (Some((1, 3)), "expected a value: a number or `inf{...}`, found \"x\"".into())
        );
        assert_eq!(bad("1 inf{0\n"), (Some((1, 8)), "expected `}`, found end of the value".into()));
        assert_eq!(
            bad("1 inf{0,,1}\n"),
            (Some((1, 9)), "expected a number above 0, found nothing".into())
        );
        assert_eq!(
            bad("1 inf{1}x\n"),
            (Some((1, 9)), "expected end of the value, found \"x\"".into())
        );
        assert_eq!(bad("1 0 0\n"), (Some((1, 5)), "expected end of line, found \"0\"".into()));
    }
}
