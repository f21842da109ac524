//! `kawari web` without a browser: the routes, the event stream, a session
//! per client, a dead engine session, bad requests answered with HTTP
//! errors while the server keeps serving, and loopback-only binding. The
//! page itself is tested in a real Chromium by web-tests/ (docs/web.md).

use crate::common::kawari_bin;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for any one answer.
const WAIT: Duration = Duration::from_secs(20);

/// A `kawari web --port 0` process, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(kawari_bin())
            .args(["web", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting kawari web");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("reading the address");
        let hostport = line
            .trim()
            .strip_prefix("http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line {line:?} is not http://HOST:PORT/"));
        Server {
            child,
            addr: hostport.parse().expect("an address"),
        }
    }

    /// One request, `Connection: close`; the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(self.addr).expect("connecting");
        s.set_read_timeout(Some(WAIT)).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("reading the answer");
        parse_response(&raw)
    }

    fn post(&self, path: &str, body: &str) -> (u16, serde_json::Value) {
        let (status, text) = self.request("POST", path, body);
        let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text:?}"));
        (status, v)
    }

    /// A new session for `variant`: its id and engine pid.
    fn session(&self, variant: &str) -> (u64, u32) {
        let (status, v) = self.post("/api/session", &format!(r#"{{"variant":"{variant}"}}"#));
        assert_eq!(status, 200, "{v}");
        (v["id"].as_u64().unwrap(), v["pid"].as_u64().unwrap() as u32)
    }

    fn events(&self, id: u64) -> Events {
        let mut s = TcpStream::connect(self.addr).expect("connecting");
        s.set_read_timeout(Some(WAIT)).unwrap();
        write!(
            s,
            "GET /api/session/{id}/events HTTP/1.1\r\nHost: test\r\n\r\n"
        )
        .unwrap();
        let mut r = BufReader::new(s);
        let mut status = String::new();
        r.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        Events(r)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An open event stream.
struct Events(BufReader<TcpStream>);

impl Events {
    /// The next event's JSON (comments and headers skipped).
    fn next(&mut self) -> serde_json::Value {
        loop {
            let mut line = String::new();
            let n = self.0.read_line(&mut line).expect("reading an event");
            assert!(n > 0, "the event stream ended");
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(data).expect("an event is JSON");
            }
        }
    }

    /// Events until one satisfying `done`, which is returned.
    fn until(&mut self, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        loop {
            let e = self.next();
            if done(&e) {
                return e;
            }
        }
    }
}

/// Status and body of a raw HTTP response (chunked bodies decoded).
fn parse_response(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("a header end");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let chunked = head
        .lines()
        .any(|l| l.eq_ignore_ascii_case("transfer-encoding: chunked"));
    if !chunked {
        return (status, body.to_string());
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    (status, out)
}

fn position(s: &Server, id: u64, body: &str) -> (u16, serde_json::Value) {
    s.post(&format!("/api/session/{id}/position"), body)
}

/// Whether process `pid` still runs (Linux: /proc).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.split(") ").nth(1).unwrap_or("").starts_with('Z'))
        .unwrap_or(false)
}

#[test]
fn page_and_assets_are_served_from_the_binary() {
    let s = Server::start();
    assert!(s.addr.ip().is_loopback(), "{}", s.addr);
    let (status, page) = s.request("GET", "/?variant=judkins", "");
    assert_eq!(status, 200);
    assert!(page.contains(r#"data-testid="variant""#), "{page}");
    for asset in [
        "app.js",
        "state.js",
        "game.js",
        "clock.js",
        "analysis.js",
        "input.js",
        "render.js",
        "tsume.js",
        "editor.js",
        "board.js",
        "pieces.js",
        "records.js",
        "api.js",
        "style.css",
    ] {
        let (status, body) = s.request("GET", &format!("/assets/{asset}"), "");
        assert_eq!(status, 200, "{asset}");
        assert!(body.len() > 500, "{asset}: {} bytes", body.len());
        // Nothing is fetched from elsewhere at run time (the SVG namespace
        // is a name, not an address).
        let outside = body.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside.contains("http://") && !outside.contains("https://"),
            "{asset}"
        );
    }
}

#[test]
fn bad_requests_get_http_errors_and_the_server_keeps_serving() {
    let s = Server::start();
    assert_eq!(s.request("GET", "/nowhere", "").0, 404);
    assert_eq!(s.request("GET", "/assets/secret.txt", "").0, 404);
    assert_eq!(s.request("GET", "/api/session", "").0, 405);
    assert_eq!(s.post("/api/session", "{not json").0, 400);
    assert_eq!(s.post("/api/session", "[1, 2]").0, 400);
    assert_eq!(s.post("/api/session", r#"{"variant":"chess"}"#).0, 400);
    assert_eq!(s.post("/api/session/99/position", "{}").0, 404);
    let (id, _) = s.session("shogi");
    // A line break would smuggle a second USI command in: refused.
    let (status, v) = position(&s, id, r#"{"variant":"shogi","start":"startpos\nquit"}"#);
    assert_eq!(status, 400, "{v}");
    let (status, _) = position(
        &s,
        id,
        r#"{"variant":"shogi","moves":["7g7f\ngo infinite"]}"#,
    );
    assert_eq!(status, 400);
    assert_eq!(s.post(&format!("/api/session/{id}/go"), "{}").0, 400);
    // Not HTTP at all.
    let mut raw = TcpStream::connect(s.addr).unwrap();
    raw.set_read_timeout(Some(WAIT)).unwrap();
    raw.write_all(b"\x00\x01garbage\r\n\r\n").unwrap();
    let mut answer = Vec::new();
    let _ = raw.read_to_end(&mut answer);
    // An illegal move is the engine's to refuse, with its own words; the
    // position stays.
    let (status, v) = position(&s, id, r#"{"variant":"shogi","moves":["7g7e"]}"#);
    assert_eq!(status, 422, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("position rejected"),
        "{v}"
    );
    let (status, v) = position(&s, id, r#"{"variant":"shogi","moves":["7g7f"]}"#);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["sfen"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );
}

#[test]
fn a_session_per_client_with_its_event_stream() {
    let s = Server::start();
    let (a, pid_a) = s.session("judkins");
    let (b, pid_b) = s.session("heian8x8");
    assert_ne!(a, b);
    assert_ne!(pid_a, pid_b);
    let (_, va) = position(&s, a, r#"{"variant":"judkins","moves":["6e6d"]}"#);
    let (_, vb) = position(&s, b, r#"{"variant":"heian8x8"}"#);
    assert_eq!(va["sfen"], "rbnsgk/5p/6/P5/6/KGSNBR w - 2");
    assert_eq!(
        vb["sfen"],
        "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1"
    );
    assert_eq!(va["status"], "ongoing");
    assert!(va["legal"].as_array().unwrap().len() > 10);
    let mut events = s.events(a);
    assert_eq!(events.next()["type"], "hello");
    let (status, v) = s.post(
        &format!("/api/session/{a}/go"),
        r#"{"kind":"move","movetime":100}"#,
    );
    assert_eq!(status, 200, "{v}");
    let search = v["search"].as_u64().unwrap();
    let best = events.until(|e| {
        e["line"]
            .as_str()
            .is_some_and(|l| l.starts_with("bestmove"))
    });
    assert_eq!(best["search"].as_u64(), Some(search));
    let mv = best["line"].as_str().unwrap().split(' ').nth(1).unwrap();
    assert!(
        va["legal"].as_array().unwrap().iter().any(|m| m == mv),
        "{mv} in {va}"
    );
    // The tsume solver's answer comes the same way.
    position(
        &s,
        a,
        r#"{"variant":"judkins","start":"sfen 5k/6/5P/6/6/K5 b G 1"}"#,
    );
    s.post(
        &format!("/api/session/{a}/go"),
        r#"{"kind":"mate","ms":5000}"#,
    );
    let mate = events.until(|e| {
        e["line"]
            .as_str()
            .is_some_and(|l| l.starts_with("checkmate"))
    });
    assert_eq!(mate["line"], "checkmate G*1b");
}

#[test]
fn a_dead_engine_is_reported_and_restarted_from_the_last_position() {
    let s = Server::start();
    let (id, pid) = s.session("yarishogi");
    let (status, before) = position(&s, id, r#"{"variant":"yarishogi","moves":["6g6f"]}"#);
    assert_eq!(status, 200, "{before}");
    let mut events = s.events(id);
    assert_eq!(events.next()["dead"], false);
    let killed = Command::new("kill").args(["-9", &pid.to_string()]).status();
    assert!(killed.is_ok_and(|k| k.success()));
    assert_eq!(events.until(|e| e["type"] != "engine")["type"], "dead");
    let (status, v) = position(&s, id, r#"{"variant":"yarishogi","moves":["6g6f"]}"#);
    assert_eq!((status, v["kind"].as_str()), (503, Some("dead")), "{v}");
    let (status, v) = s.post(&format!("/api/session/{id}/restart"), "");
    assert_eq!(status, 200, "{v}");
    assert_ne!(v["pid"].as_u64(), Some(pid as u64));
    // The new engine starts where the old one was: a search needs no
    // position first.
    s.post(
        &format!("/api/session/{id}/go"),
        r#"{"kind":"move","movetime":50}"#,
    );
    let best = events.until(|e| {
        e["line"]
            .as_str()
            .is_some_and(|l| l.starts_with("bestmove"))
    });
    let mv = best["line"].as_str().unwrap().split(' ').nth(1).unwrap();
    let (status, after) = position(
        &s,
        id,
        &format!(r#"{{"variant":"yarishogi","moves":["6g6f","{mv}"]}}"#),
    );
    assert_eq!(status, 200, "{mv} is White's reply: {after}");
}

#[test]
#[cfg(target_os = "linux")]
fn a_page_that_goes_away_stops_and_ends_its_engine() {
    let s = Server::start();
    let (id, pid) = s.session("shogi");
    let events = s.events(id);
    let (status, _) = s.post(&format!("/api/session/{id}/go"), r#"{"kind":"analyse"}"#);
    assert_eq!(status, 200);
    assert!(alive(pid));
    drop(events);
    let t = Instant::now();
    while alive(pid) && t.elapsed() < WAIT {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(pid),
        "the engine of a page gone {:?} ago still runs",
        t.elapsed()
    );
    assert_eq!(s.post(&format!("/api/session/{id}/stop"), "").0, 404);
}

#[test]
fn listens_on_loopback_only() {
    let s = Server::start();
    assert!(s.addr.ip().is_loopback(), "{}", s.addr);
    // Another address of this machine, if it has one, is not served.
    let other = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|u| u.connect("192.0.2.1:9").map(|_| u))
        .and_then(|u| u.local_addr())
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified());
    if let Some(ip) = other {
        let refused =
            TcpStream::connect_timeout(&SocketAddr::new(ip, s.addr.port()), Duration::from_secs(2));
        assert!(refused.is_err(), "{ip}:{} answered", s.addr.port());
    }
    let bad = Command::new(kawari_bin())
        .args(["web", "--host", "localhost:80"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--host"));
}
