//! The shape of the source tree, checked (docs/architecture.md): no two
//! library modules import each other, directly or round a longer circle; no
//! source file over 800 lines; the engine takes at most six names from the
//! search, its one door; every README link names a file of the repository.
//! Reads the sources only: nothing is built or run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest source file allowed, in lines.
const MAX_LINES: usize = 800;
/// The most names `src/engine/` may take from `crate::search`.
const MAX_ENGINE_SEARCH_NAMES: usize = 6;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The library module a file under `src/` is (`mate/dfpn.rs` is
/// `["mate", "dfpn"]`, `lib.rs` the root), or `None` for the binary's files
/// and test-only files.
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") || parts.last().is_some_and(|p| p == "tests") {
        return None;
    }
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    Some(parts)
}

/// A file's code without its test modules and comments: everything from the
/// first `#[cfg(test)]` on is tests, by the tree's convention.
fn code_of(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file's code names: `crate::a::b` and `super::x`, made
/// absolute.
fn named_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            // A whole word only (not `my_crate::`).
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let path: Vec<&str> = code[at..]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|s| !s.is_empty())
                .collect();
            let mut abs: Vec<String> = Vec::new();
            let mut rest = &path[..];
            if rest.first() == Some(&"crate") {
                rest = &rest[1..];
            } else {
                abs = module[..module.len().saturating_sub(1)].to_vec();
                rest = &rest[1..];
                while rest.first() == Some(&"super") {
                    abs.pop();
                    rest = &rest[1..];
                }
            }
            abs.extend(rest.iter().map(|s| s.to_string()));
            out.push(abs);
        }
    }
    out
}

/// One module an ancestor of the other (a parent declares its children and
/// re-exports them: that is structure, not a circle).
fn related(a: &[String], b: &[String]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

#[test]
fn no_import_circle_between_library_modules() {
    let src = root().join("src");
    let mut texts = BTreeMap::new();
    for f in rust_files(&src) {
        if let Some(m) = module_of(&src, &f) {
            texts.insert(m, code_of(&std::fs::read_to_string(&f).unwrap()));
        }
    }
    assert!(
        texts.len() > 50,
        "the walk found the modules: {}",
        texts.len()
    );
    let modules: BTreeSet<Vec<String>> = texts.keys().cloned().collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, code) in &texts {
        for path in named_paths(m, code) {
            // The deepest module the path names.
            let target = (1..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|p| modules.contains(p));
            if let Some(t) = target {
                if !related(m, &t) {
                    edges.entry(m.clone()).or_default().insert(t);
                }
            }
        }
    }
    assert!(
        edges.values().map(BTreeSet::len).sum::<usize>() > 100,
        "the scan found the imports"
    );
    // A circle: some module reaches itself.
    for start in &modules {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<(Vec<String>, Vec<Vec<String>>)> = vec![(start.clone(), vec![])];
        while let Some((m, trail)) = todo.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                let mut t = trail.clone();
                t.push(next.clone());
                assert!(
                    next != start,
                    "import circle: {} -> {}",
                    start.join("::"),
                    t.iter()
                        .map(|p| p.join("::"))
                        .collect::<Vec<_>>()
                        .join(" -> ")
                );
                if seen.insert(next.clone()) {
                    todo.push((next.clone(), t));
                }
            }
        }
    }
}

#[test]
fn no_source_file_over_800_lines() {
    let mut sources = Vec::new();
    for dir in ["src", "engine-tests", "benches", "examples"] {
        sources.extend(rust_files(&root().join(dir)));
    }
    let rust = sources.len();
    // The web page's scripts, markup and styles are source too.
    let assets = root().join("src/bin/kawari/web/assets");
    for e in std::fs::read_dir(&assets).unwrap_or_else(|e| panic!("{}: {e}", assets.display())) {
        let p = e.unwrap().path();
        if p.extension()
            .is_some_and(|x| x == "js" || x == "html" || x == "css")
        {
            sources.push(p);
        }
    }
    assert!(rust > 80, "the walk found the sources: {rust}");
    assert!(
        sources.len() - rust >= 3,
        "the page's assets: {}",
        sources.len() - rust
    );
    let mut long = Vec::new();
    for f in sources {
        let n = std::fs::read_to_string(&f).unwrap().lines().count();
        if n > MAX_LINES {
            long.push(format!("{} ({n} lines)", f.display()));
        }
    }
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

#[test]
fn the_engine_takes_at_most_six_names_from_the_search() {
    let mut names = BTreeSet::new();
    for f in rust_files(&root().join("src/engine")) {
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        let mut from = 0;
        while let Some(i) = code[from..].find("crate::search::") {
            let rest = &code[from + i + "crate::search::".len()..];
            from += i + 1;
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').expect("a closed use group")];
                for name in group.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    names.insert(name.split("::").next().unwrap().to_string());
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                names.insert(name.trim_end_matches(':').to_string());
            }
        }
    }
    assert!(
        names.contains("Threads"),
        "the scan found the door: {names:?}"
    );
    assert!(
        names.len() <= MAX_ENGINE_SEARCH_NAMES,
        "the engine takes {} names from search/: {names:?}",
        names.len()
    );
}

/// The README is the way in: every relative link in it names a file or
/// folder of the repository (anchors aside; no link leaves it unchecked but
/// web addresses).
#[test]
fn every_readme_link_resolves_in_the_repository() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut checked = 0;
    let mut broken = Vec::new();
    for (i, _) in readme.match_indices("](") {
        let rest = &readme[i + 2..];
        let target = &rest[..rest.find(')').expect("a closed link")];
        let path = target.split('#').next().unwrap();
        if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
            continue;
        }
        checked += 1;
        if !root().join(path).exists() {
            broken.push(target.to_string());
        }
    }
    assert!(checked > 10, "the scan found the links: {checked}");
    assert!(broken.is_empty(), "README links to nothing: {broken:?}");
}
