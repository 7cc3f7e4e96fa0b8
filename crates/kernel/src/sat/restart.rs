//! The restart policy: restart when the glue of the recent learnt clauses (a fast moving
//! average) rises well above its long-run average, at least 50 conflicts after the last
//! restart.

use super::Solver;

impl Solver {
    /// Records the glue of a clause just learnt in the two averages.
    pub(super) fn note_glue(&mut self, lbd: u32) {
        let g = f64::from(lbd);
        self.lbd_fast += (g - self.lbd_fast) / 32.0;
        self.lbd_slow += (g - self.lbd_slow) / 1e4_f64.min(self.conflicts as f64);
        self.since_restart += 1;
    }

    /// Whether the search should restart now.
    pub(super) fn restart_due(&self) -> bool {
        self.since_restart >= 50 && self.lbd_fast > 1.25 * self.lbd_slow
    }

    /// Restarts: back to level 0, keeping the learnt clauses, activities and phases.
    pub(super) fn restart(&mut self) {
        self.since_restart = 0;
        self.backtrack(0);
    }
}
