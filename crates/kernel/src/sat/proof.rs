//! The proof log of a solve: the clauses learnt and deleted, in the order the solver
//! learnt and deleted them, as the lines of a DRAT proof over the solver's variables.

use super::Lit;

/// The DRAT lines of a solve. Each line is stored as a header word (the number of literals
/// shifted left by one, the low bit set for a deletion) followed by the literal codes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProofLog {
    words: Vec<u32>,
    /// Whether the last line is the empty clause.
    done: bool,
}

impl ProofLog {
    fn push(&mut self, delete: bool, lits: impl Iterator<Item = Lit>) {
        let at = self.words.len();
        self.words.push(0);
        self.words.extend(lits.map(Lit::code));
        let len = (self.words.len() - at - 1) as u32;
        self.words[at] = len << 1 | u32::from(delete);
        self.done = !delete && len == 0;
    }

    /// A learnt clause (a lemma: a consequence of the clauses so far by unit propagation).
    pub(crate) fn add(&mut self, lits: impl Iterator<Item = Lit>) {
        self.push(false, lits);
    }

    /// A learnt clause deleted.
    pub(crate) fn delete(&mut self, lits: impl Iterator<Item = Lit>) {
        self.push(true, lits);
    }

    /// Ends the log with the empty clause, unless it ends with it already.
    pub(crate) fn finish(&mut self) {
        if !self.done {
            self.push(false, std::iter::empty());
        }
    }

    /// The lines in order: whether each is a deletion, and its literals.
    pub(crate) fn lines(&self) -> impl Iterator<Item = (bool, impl Iterator<Item = Lit> + '_)> {
        let mut at = 0;
        std::iter::from_fn(move || {
            let head = *self.words.get(at)?;
            let len = (head >> 1) as usize;
            let lits = self.words[at + 1..at + 1 + len].iter().map(|&c| Lit::from_code(c));
            at += 1 + len;
            Some((head & 1 == 1, lits))
        })
    }
}
