//! The restart policy: restart when the glue of the recent learnt clauses (a fast moving
//! average) rises well above its long-run average, at least 50 conflicts after the last
//! restart; when the options ask for it, a trail much longer than usual puts the restart off
//! (Glucose's blocking, Audemard and Simon 2012), as the search may be close to a model.

use super::Solver;

impl Solver {
    /// Records a conflict whose clause, of glue `lbd`, was just learnt: the glue averages,
    /// and (with [`super::Options::glucose`]) the trail's average length, against which a
    /// trail 1.4 times as long (after the first 10,000 conflicts) puts off the next restart
    /// by 50 conflicts at least.
    pub(super) fn note_conflict(&mut self, lbd: u32) {
        let g = f64::from(lbd);
        self.lbd_fast += (g - self.lbd_fast) / 32.0;
        self.lbd_slow += (g - self.lbd_slow) / 1e4_f64.min(self.conflicts as f64);
        self.since_restart += 1;
        if !self.opts.glucose {
            return;
        }
        let t = self.trail.len() as f64;
        self.trail_avg += (t - self.trail_avg) / 5000.0;
        if self.conflicts > 10_000 && self.since_restart >= 50 && t > 1.4 * self.trail_avg {
            self.since_restart = 0;
            self.lbd_fast = self.lbd_slow;
        }
    }

    /// Whether the search should restart now.
    pub(super) fn restart_due(&self) -> bool {
        self.since_restart >= 50 && self.lbd_fast > 1.25 * self.lbd_slow
    }

    /// Restarts: back to the level of the last of the `assumptions` levels, keeping the
    /// learnt clauses, activities and phases. The assumptions' levels stay: they come back
    /// the same after a restart to level 0, since every clause learnt asserts its literal at
    /// the level it jumps back to.
    pub(super) fn restart(&mut self, assumptions: u32) {
        self.since_restart = 0;
        self.backtrack(assumptions);
    }
}
