//! The page's files, embedded at build time: a fresh binary serves the page
//! with no file beside it.

/// An asset: its path under `/`, content type and bytes.
pub(crate) struct Asset {
    pub(crate) path: &'static str,
    pub(crate) mime: &'static str,
    pub(crate) body: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $mime:literal) => {
        Asset {
            path: $path,
            mime: $mime,
            body: include_bytes!(concat!("assets/", $path)),
        }
    };
}

/// Every file the page needs.
pub(crate) const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("state.js", "text/javascript; charset=utf-8"),
    asset!("game.js", "text/javascript; charset=utf-8"),
    asset!("clock.js", "text/javascript; charset=utf-8"),
    asset!("analysis.js", "text/javascript; charset=utf-8"),
    asset!("input.js", "text/javascript; charset=utf-8"),
    asset!("render.js", "text/javascript; charset=utf-8"),
    asset!("tsume.js", "text/javascript; charset=utf-8"),
    asset!("editor.js", "text/javascript; charset=utf-8"),
    asset!("board.js", "text/javascript; charset=utf-8"),
    asset!("pieces.js", "text/javascript; charset=utf-8"),
    asset!("records.js", "text/javascript; charset=utf-8"),
    asset!("api.js", "text/javascript; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The asset at `path` (without the leading `/`).
pub(crate) fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}
