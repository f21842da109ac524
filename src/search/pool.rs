//! The pool of search threads: persistent threads, each owning a `Worker`
//! (its search state), each running one task at a time. Thread 0 is the main
//! thread: `Threads` gives it whole jobs, and a search hands helper tasks to
//! the others through the `Crew`. A panicking task is caught, reported
//! through the pool's panic sink and its worker replaced; the thread lives on.

use super::worker::Worker;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};

/// What a pool thread runs, with its worker.
pub type Task = Box<dyn FnOnce(&mut Worker) + Send>;

/// Where panics are told (thread index, message).
pub type PanicSink = Arc<dyn Fn(usize, String) + Send + Sync>;

/// A search thread could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    /// Index of the thread that failed.
    pub index: usize,
    /// Threads asked for.
    pub count: usize,
    /// What the system said.
    pub reason: String,
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot start search thread {} of {}: {}",
            self.index, self.count, self.reason
        )
    }
}

impl std::error::Error for ThreadsError {}

/// Stack of a pool thread: the search recurses up to `MAX_PLY` plies.
const STACK_BYTES: usize = 8 << 20;

#[derive(Default)]
struct SlotState {
    task: Option<Task>,
    busy: bool,
    quit: bool,
}

/// One thread's mailbox.
#[derive(Default)]
struct Slot {
    state: Mutex<SlotState>,
    changed: Condvar,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, SlotState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The pool's threads as a task sees them: hand out tasks, wait for them.
#[derive(Clone)]
pub struct Crew {
    slots: Arc<Vec<Arc<Slot>>>,
}

impl Crew {
    /// Threads in the pool (the main thread included).
    pub fn size(&self) -> usize {
        self.slots.len()
    }

    /// Gives thread `i` a task; it must be idle (wait for it first).
    pub fn run(&self, i: usize, task: Task) {
        let slot = &self.slots[i];
        let mut s = slot.lock();
        debug_assert!(!s.busy, "thread {i} is busy");
        s.task = Some(task);
        s.busy = true;
        slot.changed.notify_all();
    }

    /// Blocks until thread `i` has finished its task.
    pub fn wait(&self, i: usize) {
        let slot = &self.slots[i];
        let mut s = slot.lock();
        while s.busy {
            s = slot.changed.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Like `wait`, but gives up after `timeout`; whether the thread is idle.
    pub fn wait_for(&self, i: usize, timeout: std::time::Duration) -> bool {
        let slot = &self.slots[i];
        let s = slot.lock();
        let (s, _) = slot
            .changed
            .wait_timeout_while(s, timeout, |s| s.busy)
            .unwrap_or_else(|p| p.into_inner());
        !s.busy
    }

    /// Whether thread `i` has no task.
    pub fn is_idle(&self, i: usize) -> bool {
        !self.slots[i].lock().busy
    }

    /// Runs `f` on every thread's worker (threads idle) and waits for all.
    pub fn each(&self, f: impl Fn(&mut Worker) + Send + Sync + 'static) {
        let f = Arc::new(f);
        for i in 0..self.size() {
            let f = f.clone();
            self.run(i, Box::new(move |w| f(w)));
        }
        for i in 0..self.size() {
            self.wait(i);
        }
    }
}

/// The pool: its threads and their mailboxes.
pub struct Pool {
    crew: Crew,
    handles: Vec<JoinHandle<()>>,
    on_panic: PanicSink,
}

impl Pool {
    /// A pool of `n` threads (at least one).
    pub fn new(n: usize, on_panic: PanicSink) -> Result<Pool, ThreadsError> {
        let mut pool = Pool {
            crew: Crew {
                slots: Arc::new(Vec::new()),
            },
            handles: Vec::new(),
            on_panic,
        };
        pool.resize(n)?;
        Ok(pool)
    }

    /// The threads, to hand tasks to.
    pub fn crew(&self) -> &Crew {
        &self.crew
    }

    /// Threads in the pool.
    pub fn size(&self) -> usize {
        self.crew.size()
    }

    /// Makes the pool `n` threads (every thread must be idle): threads are
    /// added with fresh workers, or the last ones end. If a thread cannot be
    /// started the pool stays as it was.
    pub fn resize(&mut self, n: usize) -> Result<(), ThreadsError> {
        let n = n.max(1);
        let old = self.size();
        if n == old {
            return Ok(());
        }
        let mut slots: Vec<Arc<Slot>> = self.crew.slots.iter().take(n).cloned().collect();
        if n > old {
            let mut handles = Vec::with_capacity(n - old);
            let mut added = Vec::with_capacity(n - old);
            for i in old..n {
                let slot = Arc::new(Slot::default());
                let (s, p) = (slot.clone(), self.on_panic.clone());
                let spawned = thread::Builder::new()
                    .name(format!("search-{i}"))
                    .stack_size(STACK_BYTES)
                    .spawn(move || thread_main(&s, i, &p));
                match spawned {
                    Ok(h) => {
                        handles.push(h);
                        added.push(slot);
                    }
                    Err(e) => {
                        stop_threads(&added, handles);
                        return Err(ThreadsError {
                            index: i,
                            count: n,
                            reason: e.to_string(),
                        });
                    }
                }
            }
            slots.extend(added);
            self.handles.extend(handles);
        } else {
            let retired: Vec<Arc<Slot>> = self.crew.slots[n..].to_vec();
            let handles = self.handles.split_off(n);
            stop_threads(&retired, handles);
        }
        self.crew = Crew {
            slots: Arc::new(slots),
        };
        Ok(())
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        stop_threads(&self.crew.slots, std::mem::take(&mut self.handles));
    }
}

/// Tells the threads of `slots` to end once idle and joins those that are
/// idle; a thread still busy (only when the process is quitting) is left to end
/// by itself.
fn stop_threads(slots: &[Arc<Slot>], handles: Vec<JoinHandle<()>>) {
    let mut busy = vec![false; slots.len()];
    for (slot, b) in slots.iter().zip(busy.iter_mut()) {
        let mut s = slot.lock();
        s.quit = true;
        *b = s.busy;
        slot.changed.notify_all();
    }
    for (h, b) in handles.into_iter().zip(busy) {
        if !b {
            let _ = h.join();
        }
    }
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

fn thread_main(slot: &Slot, i: usize, on_panic: &PanicSink) {
    let mut worker = Box::new(Worker::new());
    loop {
        let task = {
            let mut s = slot.lock();
            loop {
                if let Some(t) = s.task.take() {
                    break t;
                }
                if s.quit {
                    return;
                }
                s = slot.changed.wait(s).unwrap_or_else(|p| p.into_inner());
            }
        };
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| task(&mut worker))) {
            let msg = panic_message(payload.as_ref());
            log::error!("search thread {i} panicked: {msg}");
            on_panic(i, msg);
            *worker = Worker::new();
        }
        let mut s = slot.lock();
        s.busy = false;
        slot.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Panics seen: (thread, message).
    type Seen = Arc<Mutex<Vec<(usize, String)>>>;

    fn quiet_pool(n: usize) -> (Pool, Seen) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let sink: PanicSink = Arc::new(move |i, m| s.lock().unwrap().push((i, m)));
        (Pool::new(n, sink).unwrap(), seen)
    }

    #[test]
    fn every_thread_runs_its_task() {
        let (mut pool, _) = quiet_pool(3);
        let count = Arc::new(AtomicUsize::new(0));
        let c = count.clone();
        pool.crew().each(move |_| {
            c.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(count.load(Ordering::SeqCst), 3);
        pool.resize(5).unwrap();
        let c = count.clone();
        pool.crew().each(move |_| {
            c.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(count.load(Ordering::SeqCst), 8);
        assert_eq!(pool.size(), 5);
    }

    #[test]
    fn a_panicking_task_is_reported_and_the_thread_lives_on() {
        let (pool, seen) = quiet_pool(2);
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        pool.crew().run(1, Box::new(|_| panic!("boom")));
        pool.crew().wait(1);
        std::panic::set_hook(prev);
        assert_eq!(seen.lock().unwrap().clone(), vec![(1, "boom".to_string())]);
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        pool.crew().run(
            1,
            Box::new(move |_| {
                r.fetch_add(1, Ordering::SeqCst);
            }),
        );
        pool.crew().wait(1);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}
