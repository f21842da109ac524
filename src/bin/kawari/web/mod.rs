//! `kawari web`: a local page to play, analyse and solve tsume in every
//! variant. A small synchronous HTTP server (tiny_http, a thread per
//! request) serves the page's assets from the binary and a JSON API; each
//! page gets its own engine session, a child process of this executable
//! driven by USI (`session`), so the web room never reaches into the search.
//! Engine output reaches the page as Server-Sent Events. Routes in `routes`,
//! the page in `assets/`, the API and the page contract in docs/web.md.

mod assets;
mod error;
mod routes;
mod session;

use crate::flags::each_flag_or_switch;
use session::Session;
use std::collections::BTreeMap;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// The port `kawari web` listens on unless `--port` says otherwise.
pub(crate) const DEFAULT_PORT: u16 = 8470;
/// At most this many pages have an engine at once (each is a process with
/// its own hash table).
const MAX_SESSIONS: usize = 8;
/// A page silent this long (no request, no open event stream) has gone: its
/// search is stopped and its engine quits.
const PAGE_GONE: Duration = Duration::from_secs(5);
/// How often the sessions are checked for pages that have gone.
const REAP_EVERY: Duration = Duration::from_millis(500);

/// The server's sessions and how to start an engine.
pub(crate) struct Hub {
    exe: PathBuf,
    sessions: Mutex<BTreeMap<u64, Arc<Session>>>,
    next_id: Mutex<u64>,
}

impl Hub {
    /// A new session with its engine for `variant`.
    fn open(&self, variant: &str) -> Result<Arc<Session>, error::WebError> {
        if self.count() >= MAX_SESSIONS {
            return Err(error::WebError::Full(MAX_SESSIONS));
        }
        let id = {
            let mut n = self.next_id.lock().unwrap_or_else(|p| p.into_inner());
            *n += 1;
            *n
        };
        let s = Arc::new(Session::start(id, self.exe.clone(), variant)?);
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, s.clone());
        Ok(s)
    }

    fn get(&self, id: u64) -> Option<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .cloned()
    }

    fn remove(&self, id: u64) -> Option<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id)
    }

    fn count(&self) -> usize {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }

    /// Closes the sessions whose page has gone.
    fn reap(&self) {
        let gone: Vec<Arc<Session>> = {
            let mut map = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
            let ids: Vec<u64> = map
                .iter()
                .filter(|(_, s)| s.idle() > PAGE_GONE)
                .map(|(&id, _)| id)
                .collect();
            ids.iter().filter_map(|id| map.remove(id)).collect()
        };
        for s in gone {
            log::info!("web: session {} has gone quiet; closing it", s.id);
            s.close();
        }
    }
}

/// `kawari web [--port N] [--host ADDR] [--open]`: serves until killed.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut port = DEFAULT_PORT;
    let mut host: IpAddr = IpAddr::from([127, 0, 0, 1]);
    let mut open = false;
    each_flag_or_switch(args, &["--open"], |f| {
        match f.name {
            "--port" => port = f.num(0, u16::MAX as u64)? as u16,
            "--host" => {
                host = f
                    .value
                    .parse()
                    .map_err(|_| format!("bad --host '{}' (expected an IP address)", f.value))?
            }
            "--open" => open = true,
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(())
    })?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let server = tiny_http::Server::http((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    let url = match addr.ip() {
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
    };
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{url}");
    let _ = out.flush();
    if open {
        open_browser(&url);
    }
    let hub = Arc::new(Hub {
        exe,
        sessions: Mutex::new(BTreeMap::new()),
        next_id: Mutex::new(0),
    });
    let reaper = hub.clone();
    thread::Builder::new()
        .name("web-reaper".into())
        .spawn(move || loop {
            thread::sleep(REAP_EVERY);
            reaper.reap();
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    for request in server.incoming_requests() {
        let hub = hub.clone();
        let spawned = thread::Builder::new()
            .name("web-request".into())
            .spawn(move || routes::handle(&hub, request));
        if let Err(e) = spawned {
            log::error!("web: cannot start a request thread: {e}");
        }
    }
    Ok(())
}

/// Starts the system's browser on `url` (best effort: the address is printed
/// anyway).
fn open_browser(url: &str) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    if let Err(e) = cmd.arg(url).spawn() {
        eprintln!("kawari web: cannot start a browser ({e}); open {url}");
    }
}
