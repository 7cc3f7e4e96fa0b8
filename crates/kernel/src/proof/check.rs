//! A forward DRAT checker with two watched literals: each lemma is checked by reverse unit
//! propagation (RUP), else as a resolution asymmetric tautology (RAT) on its first literal,
//! against the clauses of the formula and the lemmas added and not deleted before it.
//!
//! The assignment that unit propagation of the current clauses gives (the *top level*) is
//! kept from one lemma to the next and only grows; a RUP check assigns the lemma's negation
//! on top of it, propagates and takes it back. Deleting a unit clause, or a clause that is
//! the reason of a literal of the top level, is ignored (drat-trim ignores the deletion of
//! unit clauses), and so is deleting a clause that is not in the set. Ignoring a deletion
//! is sound: if the formula is satisfiable, so is every clause set of the proof, since a
//! RUP or RAT lemma keeps a satisfiable set satisfiable and a deletion only removes a
//! constraint; keeping a clause only makes the set stronger, so the last set, which holds
//! the empty clause, is still unsatisfiable only if the formula is.

use std::collections::HashMap;
use std::fmt;

use super::drat::DratProof;

/// What a proof that was accepted showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DratChecked {
    /// Variables of the formula.
    pub vars: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// Lemmas checked, the empty clause included (0 when unit propagation of the formula
    /// alone reaches a conflict: then no lemma is read).
    pub lemmas: usize,
    /// Lemmas that needed the RAT check.
    pub rat: usize,
    /// Deletions applied.
    pub deletions: usize,
    /// Deletions ignored: of a unit clause, of the reason of a literal unit propagation
    /// fixed, or of a clause not in the set.
    pub ignored_deletions: usize,
}

/// Why a proof was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofRefused {
    /// The lemma of that line is neither RUP nor RAT on its first literal.
    NotImplied {
        /// The 1-based line of the lemma ([`DratProof::line_of`]).
        line: u64,
    },
    /// A lemma uses a variable above those of the formula that no earlier lemma introduced
    /// as its first literal and that is not its own first literal.
    UnknownVariable {
        /// The 1-based line of the lemma.
        line: u64,
        /// The variable.
        var: u32,
        /// The formula's number of variables.
        vars: usize,
    },
    /// The proof ends without the empty clause.
    NoEmptyClause,
}

impl ProofRefused {
    /// The name of the rule the proof breaks, as `verify kernel --none` reports it:
    /// `rup-rat`, `variable` or `empty-clause`.
    pub fn rule(&self) -> &'static str {
        match self {
            ProofRefused::NotImplied { .. } => "rup-rat",
            ProofRefused::UnknownVariable { .. } => "variable",
            ProofRefused::NoEmptyClause => "empty-clause",
        }
    }

    /// The 1-based line of the refused lemma, `None` when the proof ends without the empty
    /// clause.
    pub fn line(&self) -> Option<u64> {
        match *self {
            ProofRefused::NotImplied { line } | ProofRefused::UnknownVariable { line, .. } => {
                Some(line)
            }
            ProofRefused::NoEmptyClause => None,
        }
    }
}

impl DratChecked {
    /// What the check proved on `g`, in the words `verify kernel --none` prints after "ok: ".
    pub fn describe(&self, g: &gamegraph_graph::Graph) -> String {
        let how = if self.lemmas == 0 {
            "unit propagation of the conditions alone reaches a conflict".to_owned()
        } else {
            format!(
                "the proof derives the empty clause in {} lemmas ({} by RAT), each checked, \
                 with {} deletions",
                self.lemmas, self.rat, self.deletions
            )
        };
        format!(
            "{} vertices, {} arcs: no kernel; the {} clauses of the kernel conditions are \
             unsatisfiable: {how}",
            g.num_vertices(),
            g.num_arcs(),
            self.clauses
        )
    }
}

impl fmt::Display for ProofRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofRefused::NotImplied { line } => {
                write!(f, "line {line}: the lemma is not RUP nor RAT on its first literal")
            }
            ProofRefused::UnknownVariable { line, var, vars } => write!(
                f,
                "line {line}: variable {var} is not one of the {vars} of the formula and is not \
                 introduced as the first literal of a lemma"
            ),
            ProofRefused::NoEmptyClause => f.write_str("the proof ends without the empty clause"),
        }
    }
}

impl std::error::Error for ProofRefused {}

/// Checks that `proof` refutes the CNF `clauses` over variables `1..=vars` (DIMACS
/// literals): every lemma is RUP or RAT on its first literal, and the empty clause is
/// derived (or unit propagation of the formula alone reaches a conflict). Steps after the
/// empty clause are not read. A variable above `vars` may appear in a lemma once a lemma
/// introduced it as its first literal (the pivot of a RAT clause); the literals of the
/// formula must be in `1..=vars` in absolute value.
///
/// # Errors
/// The first lemma that fails, or the missing empty clause.
///
/// # Panics
/// When a literal of `clauses` is 0 or above `vars` in absolute value.
///
/// # Complexity
/// Each RUP check is a unit propagation (two watched literals); a RAT check reads every
/// clause once and makes one RUP check per clause holding the negated pivot.
pub fn check_drat(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: &DratProof,
) -> Result<DratChecked, ProofRefused> {
    let mut db = Db::new(vars);
    for c in clauses {
        let lits: Vec<u32> = c
            .iter()
            .map(|&l| db.external(l).expect("formula literals are within its variables"))
            .collect();
        db.add(&lits);
    }
    let mut done = DratChecked {
        vars,
        clauses: clauses.len(),
        lemmas: 0,
        rat: 0,
        deletions: 0,
        ignored_deletions: 0,
    };
    if db.conflict {
        return Ok(done);
    }
    for (i, step) in proof.steps.iter().enumerate() {
        let line = proof.line_of(i);
        if step.delete {
            let lits: Option<Vec<u32>> = step.lits.iter().map(|&l| db.external(l)).collect();
            if lits.is_some_and(|lits| db.delete(&lits)) {
                done.deletions += 1;
            } else {
                done.ignored_deletions += 1;
            }
            continue;
        }
        let mut lits = Vec::with_capacity(step.lits.len());
        for (k, &l) in step.lits.iter().enumerate() {
            let lit = match db.external(l) {
                Some(lit) => lit,
                None if k == 0 => db.introduce(l),
                None => {
                    return Err(ProofRefused::UnknownVariable {
                        line,
                        var: l.unsigned_abs(),
                        vars,
                    });
                }
            };
            if !lits.contains(&lit) {
                lits.push(lit);
            }
        }
        done.lemmas += 1;
        if !db.rup(&lits) {
            if !db.rat(&lits) {
                return Err(ProofRefused::NotImplied { line });
            }
            done.rat += 1;
        }
        if lits.is_empty() {
            return Ok(done);
        }
        db.add(&lits);
    }
    Err(ProofRefused::NoEmptyClause)
}

/// No clause: the reason of a decision or of an assumption.
const NONE: u32 = u32::MAX;
/// The flag of a watch of a clause of two literals, whose blocker is the other literal:
/// it propagates without reading the clause.
const BINARY: u32 = 1 << 31;
/// The value of an unassigned variable.
const UNDEF: u8 = 2;

/// The clause set with its watches and the top-level assignment. A literal is coded
/// `2 · var + negated` over 0-based internal variables.
struct Db {
    /// Variables of the formula.
    vars: usize,
    /// Internal variable of each variable above `vars` introduced by a lemma.
    aux: HashMap<u32, u32>,
    /// The literals of every clause, one after the other.
    lits: Vec<u32>,
    start: Vec<u32>,
    len: Vec<u32>,
    alive: Vec<bool>,
    /// Per literal: the clauses (of two literals or more) watching it, where it is one of
    /// the first two literals, each with a literal of the clause (a blocker) whose being
    /// true makes reading the clause needless.
    watches: Vec<Vec<(u32, u32)>>,
    value: Vec<u8>,
    reason: Vec<u32>,
    trail: Vec<u32>,
    qhead: usize,
    /// Unit propagation of the clause set reached a conflict.
    conflict: bool,
    /// The clauses by their sorted literals, to find what a deletion names.
    index: HashMap<Vec<u32>, Vec<u32>>,
}

impl Db {
    fn new(vars: usize) -> Db {
        Db {
            vars,
            aux: HashMap::new(),
            lits: Vec::new(),
            start: Vec::new(),
            len: Vec::new(),
            alive: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            value: vec![UNDEF; vars],
            reason: vec![NONE; vars],
            trail: Vec::new(),
            qhead: 0,
            conflict: false,
            index: HashMap::new(),
        }
    }

    /// The internal literal of a DIMACS literal, `None` for a variable above the formula's
    /// that was not introduced.
    fn external(&self, l: i32) -> Option<u32> {
        let v = l.unsigned_abs();
        let var = if v as usize <= self.vars && v > 0 { v - 1 } else { *self.aux.get(&v)? };
        Some(2 * var + u32::from(l < 0))
    }

    /// Introduces the variable of `l`, above the formula's, and gives its literal.
    fn introduce(&mut self, l: i32) -> u32 {
        let var = self.value.len() as u32;
        self.aux.insert(l.unsigned_abs(), var);
        self.value.push(UNDEF);
        self.reason.push(NONE);
        self.watches.push(Vec::new());
        self.watches.push(Vec::new());
        2 * var + u32::from(l < 0)
    }

    #[inline]
    fn lit_value(&self, l: u32) -> u8 {
        let v = self.value[(l >> 1) as usize];
        if v == UNDEF { UNDEF } else { v ^ (l & 1) as u8 }
    }

    #[inline]
    fn assign(&mut self, l: u32, reason: u32) {
        self.value[(l >> 1) as usize] = 1 ^ (l & 1) as u8;
        self.reason[(l >> 1) as usize] = reason;
        self.trail.push(l);
    }

    fn clause(&self, c: u32) -> &[u32] {
        let s = self.start[c as usize] as usize;
        &self.lits[s..s + self.len[c as usize] as usize]
    }

    /// Adds a clause (no repeated literal) at the top level and propagates.
    fn add(&mut self, lits: &[u32]) {
        let mut key = lits.to_vec();
        key.sort_unstable();
        key.dedup();
        if key.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return; // a tautology: never propagates
        }
        let c = self.start.len() as u32;
        self.start.push(self.lits.len() as u32);
        self.len.push(key.len() as u32);
        self.alive.push(true);
        self.index.entry(key.clone()).or_default().push(c);
        // Literals not false first, true ones before unassigned ones.
        key.sort_by_key(|&l| match self.lit_value(l) {
            1 => 0,
            UNDEF => 1,
            _ => 2,
        });
        self.lits.extend_from_slice(&key);
        if self.conflict {
            if key.len() >= 2 {
                self.watch(c);
            }
            return;
        }
        match key.first().map(|&l| (l, self.lit_value(l))) {
            None | Some((_, 0)) => self.conflict = true,
            Some((l, UNDEF)) if key.len() == 1 || self.lit_value(key[1]) == 0 => {
                self.assign(l, c);
                self.conflict = self.propagate();
            }
            _ => {}
        }
        if key.len() >= 2 {
            self.watch(c);
        }
    }

    fn watch(&mut self, c: u32) {
        let s = self.start[c as usize] as usize;
        let (a, b) = (self.lits[s], self.lits[s + 1]);
        let w = if self.len[c as usize] == 2 { c | BINARY } else { c };
        self.watches[a as usize].push((w, b));
        self.watches[b as usize].push((w, a));
    }

    /// Deletes one clause with the literals `lits`; false when there is none, or when it is
    /// a unit or the reason of a top-level literal (then it stays).
    fn delete(&mut self, lits: &[u32]) -> bool {
        let mut key = lits.to_vec();
        key.sort_unstable();
        key.dedup();
        let Some(&c) = self.index.get(&key).and_then(|ids| ids.last()) else { return false };
        if key.len() == 1 || self.clause(c).iter().any(|&l| self.reason[(l >> 1) as usize] == c) {
            return false;
        }
        let ids = self.index.get_mut(&key).expect("found above");
        ids.pop();
        if ids.is_empty() {
            self.index.remove(&key);
        }
        self.alive[c as usize] = false;
        let s = self.start[c as usize] as usize;
        for w in [self.lits[s], self.lits[s + 1]] {
            let ws = &mut self.watches[w as usize];
            if let Some(at) = ws.iter().position(|&(d, _)| d & !BINARY == c) {
                ws.swap_remove(at);
            }
        }
        true
    }

    /// Unit propagation from `qhead`; true on a conflict.
    fn propagate(&mut self) -> bool {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            let fl = p ^ 1;
            let mut ws = std::mem::take(&mut self.watches[fl as usize]);
            // The watches kept are moved to the front: `ws[..j]`.
            let (mut i, mut j) = (0, 0);
            let mut conflict = false;
            while i < ws.len() {
                let (c, blocker) = ws[i];
                i += 1;
                let value = self.lit_value(blocker);
                if value == 1 {
                    ws[j] = (c, blocker);
                    j += 1;
                    continue;
                }
                if c & BINARY != 0 {
                    ws[j] = (c, blocker);
                    j += 1;
                    if value == 0 {
                        conflict = true;
                        break;
                    }
                    self.assign(blocker, c & !BINARY);
                    continue;
                }
                let s = self.start[c as usize] as usize;
                let len = self.len[c as usize] as usize;
                if self.lits[s] == fl {
                    self.lits.swap(s, s + 1);
                }
                let first = self.lits[s];
                if self.lit_value(first) == 1 {
                    ws[j] = (c, first);
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..len {
                    let l = self.lits[s + k];
                    if self.lit_value(l) != 0 {
                        self.lits.swap(s + 1, s + k);
                        self.watches[l as usize].push((c, first));
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                ws[j] = (c, first);
                j += 1;
                if self.lit_value(first) == 0 {
                    conflict = true;
                    break;
                }
                self.assign(first, c);
            }
            // On a conflict the watches not visited stay too.
            while i < ws.len() {
                ws[j] = ws[i];
                i += 1;
                j += 1;
            }
            ws.truncate(j);
            self.watches[fl as usize] = ws;
            if conflict {
                return true;
            }
        }
        false
    }

    /// Whether unit propagation of the clauses and the negation of `lits` reaches a
    /// conflict; the assignment is taken back.
    fn rup(&mut self, lits: &[u32]) -> bool {
        if self.conflict {
            return true;
        }
        let top = self.trail.len();
        let mut found = false;
        for &l in lits {
            match self.lit_value(l) {
                1 => {
                    found = true;
                    break;
                }
                0 => {}
                _ => self.assign(l ^ 1, NONE),
            }
        }
        if !found {
            found = self.propagate();
        }
        for &l in &self.trail[top..] {
            self.value[(l >> 1) as usize] = UNDEF;
            self.reason[(l >> 1) as usize] = NONE;
        }
        self.trail.truncate(top);
        self.qhead = top;
        found
    }

    /// Whether `lits` is RAT on its first literal: every resolvent with a clause holding
    /// the negated pivot is a tautology or RUP.
    fn rat(&mut self, lits: &[u32]) -> bool {
        let Some(&pivot) = lits.first() else { return false };
        let holders: Vec<u32> = (0..self.start.len() as u32)
            .filter(|&c| self.alive[c as usize] && self.clause(c).contains(&(pivot ^ 1)))
            .collect();
        let mut resolvent = Vec::new();
        for c in holders {
            resolvent.clear();
            resolvent.extend_from_slice(lits);
            let other: Vec<u32> =
                self.clause(c).iter().copied().filter(|&l| l != pivot ^ 1).collect();
            let mut tautology = false;
            for l in other {
                if resolvent.contains(&(l ^ 1)) {
                    tautology = true;
                    break;
                }
                if !resolvent.contains(&l) {
                    resolvent.push(l);
                }
            }
            if !tautology && !self.rup(&resolvent) {
                return false;
            }
        }
        true
    }
}
