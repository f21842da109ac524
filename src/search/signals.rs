//! What the engine tells a running search from the input thread: stop, and
//! ponderhit (with the clock it may bring). Searching threads only read one
//! relaxed flag per check; the main thread waits on a condition variable when
//! it must hold its answer (pondering, `go infinite`), so nothing sleeps in a loop.

use super::Limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// A `ponderhit`: when it came and the clock it brought, if any.
#[derive(Clone, Debug)]
pub struct Ponderhit {
    /// The moment the clock started to run.
    pub at: Instant,
    /// Times sent with it.
    pub clock: Option<Limits>,
}

#[derive(Debug, Default)]
struct Gate {
    stop_requested: bool,
    ponderhit: Option<Ponderhit>,
}

/// Flags between the engine and the threads of one search.
#[derive(Debug, Default)]
pub struct Signals {
    /// Every thread stops searching as soon as it can.
    stop: AtomicBool,
    /// Set while pondering; cleared by `ponderhit`.
    pondering: AtomicBool,
    gate: Mutex<Gate>,
    changed: Condvar,
}

impl Signals {
    /// Signals for a search that ponders if `ponder`.
    pub fn new(ponder: bool) -> Signals {
        let s = Signals::default();
        s.pondering.store(ponder, Ordering::SeqCst);
        s
    }

    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether threads should stop searching.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Stops the threads (the main thread's own decision: its answer may still
    /// be held while pondering or in `go infinite`).
    pub fn stop_threads(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// `stop`: the threads stop and the answer is given at once.
    pub fn request_stop(&self) {
        let mut g = self.gate();
        g.stop_requested = true;
        self.stop.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// Lets the threads search again after `stop_threads` (for a job that runs
    /// several searches); false if `stop` was received meanwhile.
    pub fn rearm(&self) -> bool {
        let g = self.gate();
        if g.stop_requested {
            return false;
        }
        self.stop.store(false, Ordering::SeqCst);
        true
    }

    /// Whether `stop` was received.
    pub fn stop_requested(&self) -> bool {
        self.gate().stop_requested
    }

    /// Whether the search is (still) pondering.
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// `ponderhit`: the clock runs from now, with `clock` if one was sent.
    pub fn ponderhit(&self, clock: Option<Limits>) {
        let mut g = self.gate();
        if self.pondering.load(Ordering::SeqCst) {
            g.ponderhit = Some(Ponderhit {
                at: Instant::now(),
                clock,
            });
            self.pondering.store(false, Ordering::SeqCst);
        }
        self.changed.notify_all();
    }

    /// The ponderhit, once it has come.
    pub fn take_ponderhit(&self) -> Option<Ponderhit> {
        self.gate().ponderhit.take()
    }

    /// Blocks while the answer must be held: until `stop`, and while pondering
    /// or (if `infinite`) at all.
    pub fn hold(&self, infinite: bool) {
        let mut g = self.gate();
        while !g.stop_requested && (infinite || self.pondering.load(Ordering::SeqCst)) {
            g = self.changed.wait(g).unwrap_or_else(|p| p.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn hold_waits_for_ponderhit_or_stop() {
        let s = Arc::new(Signals::new(true));
        let t = {
            let s = s.clone();
            std::thread::spawn(move || s.hold(false))
        };
        std::thread::sleep(Duration::from_millis(30));
        assert!(!t.is_finished());
        s.ponderhit(None);
        t.join().unwrap();
        assert!(!s.pondering());
        assert!(s.take_ponderhit().is_some());
        assert!(!s.stopped());

        let s = Arc::new(Signals::new(false));
        let t = {
            let s = s.clone();
            std::thread::spawn(move || s.hold(true))
        };
        std::thread::sleep(Duration::from_millis(30));
        assert!(!t.is_finished());
        s.request_stop();
        t.join().unwrap();
        assert!(s.stopped() && s.stop_requested());
    }
}
