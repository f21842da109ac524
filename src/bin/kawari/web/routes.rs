//! The routes: the page's assets, and the JSON API under `/api/` (each
//! request answered with JSON; an error with its HTTP status and
//! `{"error": text, "kind": word}`). The server keeps serving whatever a
//! request holds.

use super::error::WebError;
use super::{assets, Hub};
use kawari::variant::Variant;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;
use tiny_http::{Method, Request};

/// Largest request body read, in bytes.
const MAX_BODY: usize = 1 << 16;
/// Longest position text accepted (a SFEN or FEN of the largest board is far
/// shorter).
const MAX_POSITION: usize = 512;
/// Most moves a game may send.
const MAX_MOVES: usize = 4096;
/// An event stream writes a comment this often, so that a page that has
/// gone is noticed (the write fails).
const STREAM_PING: Duration = Duration::from_millis(1000);
/// Longest think time a request may ask for, in ms (a day).
const MAX_MS: u64 = 86_400_000;

/// Answers one request.
pub(crate) fn handle(hub: &Hub, mut request: Request) {
    log::debug!("web: {} {}", request.method(), request.url());
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    if method == Method::Get && path.starts_with("/api/session/") && path.ends_with("/events") {
        return events(hub, request, &path);
    }
    let result = match (method.clone(), path.as_str()) {
        (Method::Get, "/") => Ok(Reply::Asset(assets::find("index.html"))),
        (Method::Get, p) if p.starts_with("/assets/") => Ok(Reply::Asset(assets::find(&p[8..]))),
        (Method::Get, "/favicon.ico") => Ok(Reply::Asset(assets::find("favicon.svg"))),
        (Method::Post, p) if p.starts_with("/api/") => {
            read_json(&mut request).and_then(|body| api(hub, p, &body).map(Reply::Json))
        }
        (_, p) if p.starts_with("/api/") || p == "/" || p.starts_with("/assets/") => {
            Err(WebError::Method)
        }
        (_, p) => Err(WebError::NotFound(clip(p))),
    };
    let answer = match result {
        Ok(Reply::Asset(Some(a))) => Answer {
            status: 200,
            mime: a.mime,
            // Served from memory on this machine: not worth caching.
            cache: "no-store",
            body: asset_body(a),
        },
        Ok(Reply::Asset(None)) => error_answer(&WebError::NotFound(clip(&path))),
        Ok(Reply::Json(v)) => json_answer(200, &v),
        Err(e) => error_answer(&e),
    };
    let status = answer.status;
    match answer.send(request) {
        Ok(()) => log::debug!("web: {method} {path} {status}"),
        Err(e) => log::debug!("web: cannot answer {method} {path}: {e}"),
    }
}

/// An answer, written by us with `Connection: close` (tiny_http drops that
/// header from its own responses and keeps every connection open, and a
/// kept-open connection holds one of its pool's threads: a burst of new
/// connections could then wait in its queue until an old one closed. The
/// browser tests saw a page's last module wait 15 s that way).
struct Answer {
    status: u16,
    mime: &'static str,
    cache: &'static str,
    body: Vec<u8>,
}

impl Answer {
    fn send(self, request: Request) -> std::io::Result<()> {
        let reason = match self.status {
            200 => "OK",
            400 => "Bad Request",
            404 => "Not Found",
            405 => "Method Not Allowed",
            422 => "Unprocessable Content",
            503 => "Service Unavailable",
            _ => "Internal Server Error",
        };
        let mut w = request.into_writer();
        let head = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: {}\r\nX-Content-Type-Options: nosniff\r\n\
             Connection: close\r\n\r\n",
            self.status,
            self.mime,
            self.body.len(),
            self.cache
        );
        w.write_all(head.as_bytes())?;
        w.write_all(&self.body)?;
        w.flush()
    }
}

fn json_answer(status: u16, v: &Value) -> Answer {
    Answer {
        status,
        mime: "application/json",
        cache: "no-store",
        body: v.to_string().into_bytes(),
    }
}

fn error_answer(e: &WebError) -> Answer {
    json_answer(
        e.status(),
        &json!({"error": e.to_string(), "kind": e.kind()}),
    )
}

/// An asset's bytes: the embedded ones, or, for work on the page, the file
/// of that name in `$KAWARI_WEB_ASSETS` when that is set (no rebuild
/// needed to see a change).
fn asset_body(a: &assets::Asset) -> Vec<u8> {
    std::env::var_os("KAWARI_WEB_ASSETS")
        .and_then(|dir| std::fs::read(std::path::Path::new(&dir).join(a.path)).ok())
        .unwrap_or_else(|| a.body.to_vec())
}

/// What a route answers.
enum Reply {
    Asset(Option<&'static assets::Asset>),
    Json(Value),
}

/// At most 80 printable characters of `s`, for messages.
fn clip(s: &str) -> String {
    s.chars()
        .take(80)
        .map(|c| if c.is_ascii_graphic() { c } else { '?' })
        .collect()
}

/// The request's body as JSON (an empty body is `{}`).
fn read_json(request: &mut Request) -> Result<Value, WebError> {
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| WebError::BadRequest(format!("reading the body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(WebError::BadRequest(format!(
            "body longer than {MAX_BODY} bytes"
        )));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let v: Value = serde_json::from_slice(&body)
        .map_err(|e| WebError::BadRequest(format!("body is not JSON: {e}")))?;
    if !v.is_object() {
        return Err(WebError::BadRequest("body is not a JSON object".into()));
    }
    Ok(v)
}

/// The `/api/...` POST routes.
fn api(hub: &Hub, path: &str, body: &Value) -> Result<Value, WebError> {
    if path == "/api/session" {
        let variant = variant(body)?;
        let s = hub.open(variant)?;
        return Ok(json!({"id": s.id, "pid": s.pid()}));
    }
    let rest = path
        .strip_prefix("/api/session/")
        .ok_or_else(|| WebError::NotFound(clip(path)))?;
    let (id, action) = rest
        .split_once('/')
        .ok_or_else(|| WebError::NotFound(clip(path)))?;
    let id: u64 = id
        .parse()
        .map_err(|_| WebError::NotFound(format!("session '{}'", clip(id))))?;
    let session = hub
        .get(id)
        .ok_or_else(|| WebError::NotFound(format!("session {id}")))?;
    match action {
        "position" => {
            let variant = variant(body)?;
            let start = start(body)?;
            let moves = moves(body)?;
            session.position(variant, &start, &moves)
        }
        "level" => {
            let skill = opt_int(body, "skill", -20, 20)?;
            let elo = opt_int(body, "elo", 500, 2850)?;
            session.level(skill, elo)?;
            Ok(json!({}))
        }
        "go" => {
            let (go, multipv) = go_command(body)?;
            let search = session.go(&go, multipv)?;
            Ok(json!({"search": search}))
        }
        "stop" => session.stop().map(|_| json!({})),
        "restart" => {
            session.restart()?;
            Ok(json!({"pid": session.pid()}))
        }
        "close" => {
            // The page is going away: it waits for no one.
            if let Some(s) = hub.remove(id) {
                let _ = std::thread::Builder::new()
                    .name("web-close".into())
                    .spawn(move || s.close());
            }
            Ok(json!({}))
        }
        "ping" => {
            session.touch();
            Ok(json!({}))
        }
        _ => Err(WebError::NotFound(clip(path))),
    }
}

/// `variant`: one of the seven names.
fn variant(body: &Value) -> Result<&'static str, WebError> {
    let name = body
        .get("variant")
        .and_then(Value::as_str)
        .ok_or_else(|| WebError::BadRequest("'variant' (a string) is required".into()))?;
    Variant::all()
        .iter()
        .map(|v| v.name())
        .find(|n| *n == name)
        .ok_or_else(|| WebError::BadRequest(format!("unknown variant '{}'", clip(name))))
}

/// `start`: `startpos`, `sfen <text>` or `fen <text>`, one line of printable
/// text (what follows `position`).
fn start(body: &Value) -> Result<String, WebError> {
    let s = body
        .get("start")
        .and_then(Value::as_str)
        .unwrap_or("startpos")
        .trim();
    if s.len() > MAX_POSITION || s.chars().any(|c| c.is_control()) {
        return Err(WebError::BadRequest(
            "'start' must be one line of at most 512 characters".into(),
        ));
    }
    let ok = s == "startpos"
        || ["sfen ", "fen "]
            .iter()
            .any(|p| s.strip_prefix(p).is_some_and(|t| !t.trim().is_empty()));
    if !ok {
        return Err(WebError::BadRequest(
            "'start' is 'startpos', 'sfen <SFEN>' or 'fen <FEN>'".into(),
        ));
    }
    Ok(s.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// `moves`: a list of move texts (letters, digits, `*`, `+`, `@`).
fn moves(body: &Value) -> Result<Vec<String>, WebError> {
    let Some(list) = body.get("moves") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| WebError::BadRequest("'moves' must be a list".into()))?;
    if list.len() > MAX_MOVES {
        return Err(WebError::BadRequest(format!("more than {MAX_MOVES} moves")));
    }
    list.iter()
        .map(|m| {
            m.as_str()
                .filter(|t| {
                    (2..=10).contains(&t.len())
                        && t.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "*+@=".contains(c))
                })
                .map(str::to_string)
                .ok_or_else(|| WebError::BadRequest(format!("bad move {}", clip(&m.to_string()))))
        })
        .collect()
}

/// An optional integer field within `lo..=hi`.
fn opt_int(body: &Value, name: &str, lo: i64, hi: i64) -> Result<Option<i64>, WebError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .filter(|n| (lo..=hi).contains(n))
            .map(Some)
            .ok_or_else(|| WebError::BadRequest(format!("'{name}' must be {lo}..{hi}"))),
    }
}

/// A time in ms (a non-negative integer) named `name`, if given.
fn ms(body: &Value, name: &str) -> Result<Option<u64>, WebError> {
    Ok(opt_int(body, name, 0, MAX_MS as i64)?.map(|n| n as u64))
}

/// The `go` command and MultiPV a `/go` body asks for. `kind`: `move` (the
/// clock: `btime`, `wtime`, `binc`, `winc`, `byoyomi`, or `movetime`),
/// `analyse` (infinite, `multipv` lines), `hint` (`movetime`), `mate` (`ms`).
fn go_command(body: &Value) -> Result<(String, u32), WebError> {
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or("");
    match kind {
        "move" => {
            if let Some(t) = ms(body, "movetime")? {
                return Ok((format!("go movetime {}", t.max(1)), 1));
            }
            let mut go = String::from("go");
            for name in ["btime", "wtime", "binc", "winc", "byoyomi"] {
                if let Some(t) = ms(body, name)? {
                    go.push_str(&format!(" {name} {t}"));
                }
            }
            if go == "go" {
                return Err(WebError::BadRequest(
                    "'move' needs 'movetime' or clock times".into(),
                ));
            }
            Ok((go, 1))
        }
        "analyse" => {
            let n = opt_int(body, "multipv", 1, 10)?.unwrap_or(3);
            Ok(("go infinite".into(), n as u32))
        }
        "hint" => {
            let t = ms(body, "movetime")?.unwrap_or(500).max(1);
            Ok((format!("go movetime {t}"), 1))
        }
        "mate" => {
            let t = ms(body, "ms")?.unwrap_or(10_000).max(1);
            Ok((format!("go mate {t}"), 1))
        }
        _ => Err(WebError::BadRequest(
            "'kind' is move, analyse, hint or mate".into(),
        )),
    }
}

/// `GET /api/session/<id>/events`: Server-Sent Events, one JSON object per
/// `data:` line, until the page goes away.
fn events(hub: &Hub, request: Request, path: &str) {
    let id = path
        .trim_start_matches("/api/session/")
        .trim_end_matches("/events")
        .parse::<u64>()
        .ok();
    let Some(session) = id.and_then(|id| hub.get(id)) else {
        let _ = error_answer(&WebError::NotFound(clip(path))).send(request);
        return;
    };
    let rx = session.subscribe();
    let mut w = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nConnection: close\r\n\
                X-Content-Type-Options: nosniff\r\n\r\nretry: 1000\n\n";
    let mut ok = w.write_all(head.as_bytes()).and_then(|_| w.flush()).is_ok();
    while ok {
        let chunk = match rx.recv_timeout(STREAM_PING) {
            Ok(event) => format!("data: {event}\n\n"),
            Err(RecvTimeoutError::Timeout) => ": ping\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        ok = w
            .write_all(chunk.as_bytes())
            .and_then(|_| w.flush())
            .is_ok();
    }
    session.unsubscribe();
}
