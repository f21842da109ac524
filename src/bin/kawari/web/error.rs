//! The web room's one error type: what went wrong with a request, and the
//! HTTP status it is answered with.

use std::fmt;

/// An error answering a request; the page shows its text.
#[derive(Debug)]
pub(crate) enum WebError {
    /// The request is malformed (bad JSON, a missing or bad field): 400.
    BadRequest(String),
    /// No such route, asset or session: 404.
    NotFound(String),
    /// The route exists but not for this method: 405.
    Method,
    /// The engine refused the request (`info string error: ...`), its
    /// message as the engine gave it: 422.
    Engine(String),
    /// The session's engine process has died or stopped answering: 503; the
    /// page offers to continue from its last position (`/restart`).
    Dead,
    /// Too many sessions are open: 503.
    Full(usize),
    /// Starting or talking to the engine failed for another reason: 500.
    Internal(String),
}

impl WebError {
    /// The HTTP status code.
    pub(crate) fn status(&self) -> u16 {
        match self {
            WebError::BadRequest(_) => 400,
            WebError::NotFound(_) => 404,
            WebError::Method => 405,
            WebError::Engine(_) => 422,
            WebError::Dead | WebError::Full(_) => 503,
            WebError::Internal(_) => 500,
        }
    }

    /// A short word the page can test for (`dead` offers a restart).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            WebError::BadRequest(_) => "bad-request",
            WebError::NotFound(_) => "not-found",
            WebError::Method => "method",
            WebError::Engine(_) => "engine",
            WebError::Dead => "dead",
            WebError::Full(_) => "full",
            WebError::Internal(_) => "internal",
        }
    }
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebError::BadRequest(m) => write!(f, "bad request: {m}"),
            WebError::NotFound(what) => write!(f, "not found: {what}"),
            WebError::Method => write!(f, "method not allowed"),
            WebError::Engine(m) => write!(f, "{m}"),
            WebError::Dead => write!(f, "the engine stopped"),
            WebError::Full(n) => write!(f, "too many open pages ({n}); close one"),
            WebError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}
