//! The shape of the code, checked so that the documents stay true and the issue-38 limits hold: every code
//! name docs/architecture.md shows exists; every section a comment or a document cites exists; the source
//! files import each other in at most one circle; the jobs' public surface and the CLI's functions do not
//! grow (the ceilings are today's counts, lowered as the code shrinks); docs/performance.md stays short.
//!
//! The source is read as text, without a Rust parser: comments, strings and character literals are blanked
//! out first, and test code (whatever follows `#[cfg(test)]`: a module, a function, a `use`) is left out.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use crate::util::root;

/// Most `pub` items of pgnkit-jobs' non-test code (see [`public_items`]): the count may fall, never rise.
/// Issue 38 brought it to 168; issue 39 added what the CLI and Python give the jobs for FIDE's results (the
/// options `StandingsFormat`, `TrfVersion`, `Moveless`, `AllocatedBye`, `UnplayedRules`) and `--pairings`
/// (`Pairings` and its `read`, the jobs' `with_pairings`, standings' batch and state), 182; then cut to what
/// the CLI and Python name, each through one entry point (`check_tags`' `UsageError`, `StatsJob::new`'s spill
/// directory, `StatsOptions::arrow_schema`, `GameReport::count`, explained values for a capped `--jobs`, a
/// missing tag and an expression over budget). Issue 40 added the repair job (`RepairJob` and its `new`, its
/// options, batch and note; the found repair with `is_certain` and `fitting`, reached through
/// `Problem::repair`), 176. Issue 41 added Parquet input (`InputFormat` and `Sources::with_format`, the
/// `TableError` an input's error holds) and stats' `--keep-columns` (`KeepColumns`, `KeptColumn` and
/// `kept_columns`, which the CLI names to resolve them against the first input), 183. Issue 42 added the
/// tree job, which the CLI and Python name: the module, `TreeFormat`, `TreeRequest` and its refusal
/// `TreeOptionError`, `TreeJob` (`new`, `builder`, `missing_tags`), its batch and state, the `TreeBuilder`
/// the sinks feed (`add`, `spilled_runs`, `finish`), the `Tree` it gives (`write`, `record_batches`,
/// `schema`) and `TreeWritten`, the defaults `DEFAULT_DEPTH` and `default_memory`, 205.
const MAX_JOBS_PUB_ITEMS: usize = 205;
/// Most `pub` struct fields (named or tuple) of pgnkit-jobs' non-test code (issue 39: `UnplayedRules`' two,
/// `ValidateOptions::unplayed`, `StandingsState::standings`). Issue 40: the repair job's options (3), batch
/// (6) and note (8), `ConvertOptions::repair` and `BatchOutput::repaired`, 128. Issue 41: `Problem::record`
/// and `RepairNote::record` (the row of a game read from Parquet, which the CLI's renderers name) and
/// `StatsOptions::keep`, 131. Issue 42: `TreeRequest`'s ten options, `TreeState`'s two counts and
/// `TreeWritten`'s two, 145.
const MAX_JOBS_PUB_FIELDS: usize = 145;
/// Most lines of one function in `src/cli/` (from the line of `fn` to that of its closing brace).
const MAX_CLI_FN_LINES: usize = 80;

// ---------------------------------------------------------------------------------------------------------
// Reading Rust source as text.

/// `src` with comments, string and character literals replaced by spaces (line breaks kept, so line numbers
/// stay), and lifetimes left as they are.
fn blank_out(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if let Some(hashes) = raw_string_start(b, i) {
            // r"..", r#".."#, br#".."#: no escapes, ends at the quote followed by as many `#`.
            let open = b[i..].iter().position(|&c| c == b'"').unwrap() + i + 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let end = b[open..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| open + n + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' && (i == 0 || !is_ident_byte(b[i - 1]) || b[i - 1] == b'b') {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, (j + 1).min(b.len()));
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}', 'é') or a lifetime ('a, left alone).
            if b.get(i + 1) == Some(&b'\\') {
                let end = b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map_or(b.len(), |n| i + 3 + n);
                blank(&mut out, i, end);
                i = end;
            } else {
                let width = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                if b.get(i + 1 + width) == Some(&b'\'') {
                    blank(&mut out, i, i + 2 + width);
                    i += 2 + width;
                } else {
                    i += 1;
                }
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The number of `#` of a raw string literal that starts at `i`, if one does.
fn raw_string_start(b: &[u8], i: usize) -> Option<usize> {
    if i > 0 && is_ident_byte(b[i - 1]) {
        return None;
    }
    let mut j = i;
    if b.get(j) == Some(&b'b') {
        j += 1;
    }
    if b.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
    (b.get(j + hashes) == Some(&b'"')).then_some(hashes)
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The index just past the brace that closes the one at `open`.
fn matching_brace(b: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    b.len()
}

/// Blanked-out `code` without its test code: the item after each `#[cfg(test)]`, up to its `;` or through
/// its braces.
fn without_tests(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let mut from = 0;
    while let Some(n) = code[from..].find("#[cfg(test)]") {
        let start = from + n;
        let mut j = start + "#[cfg(test)]".len();
        while j < b.len() && b[j] != b';' && b[j] != b'{' {
            j += 1;
        }
        let end = if j < b.len() && b[j] == b'{' {
            matching_brace(b, j)
        } else {
            j + 1
        };
        let end = end.min(b.len());
        for byte in &mut out[start..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        from = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Punct(char),
    /// `::`
    Path,
}

fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let b = code.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if is_ident_byte(c) {
            let start = i;
            while i < b.len() && is_ident_byte(b[i]) {
                i += 1;
            }
            toks.push((Tok::Ident(code[start..i].to_string()), start));
        } else if b[i..].starts_with(b"::") {
            toks.push((Tok::Path, i));
            i += 2;
        } else if c.is_ascii_whitespace() || !c.is_ascii() {
            i += 1;
        } else {
            toks.push((Tok::Punct(c as char), i));
            i += 1;
        }
    }
    toks
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------------------
// The module tree of a crate and the imports between its files.

/// One `use` leaf: the path as written (`self` leaves folded into their parent), the name it binds, and
/// whether it is a glob.
struct UseLeaf {
    path: Vec<String>,
    name: Option<String>,
    glob: bool,
}

/// Expands the use tree in `toks` (after `use`, up to `;`) into leaves.
fn use_leaves(toks: &[Tok]) -> Vec<UseLeaf> {
    fn walk(toks: &[Tok], i: &mut usize, prefix: &[String], out: &mut Vec<UseLeaf>) {
        let mut path = prefix.to_vec();
        while *i < toks.len() {
            match &toks[*i] {
                Tok::Ident(s) if s == "as" => {
                    *i += 1;
                    let alias = match toks.get(*i) {
                        Some(Tok::Ident(a)) => a.clone(),
                        _ => String::new(),
                    };
                    *i += 1;
                    push_leaf(path, Some(alias), false, out);
                    return;
                }
                Tok::Ident(s) => {
                    path.push(s.clone());
                    *i += 1;
                }
                Tok::Path => *i += 1,
                Tok::Punct('*') => {
                    *i += 1;
                    out.push(UseLeaf {
                        path,
                        name: None,
                        glob: true,
                    });
                    return;
                }
                Tok::Punct('{') => {
                    *i += 1;
                    loop {
                        match toks.get(*i) {
                            None => return,
                            Some(Tok::Punct('}')) => {
                                *i += 1;
                                return;
                            }
                            Some(Tok::Punct(',')) => *i += 1,
                            _ => walk(toks, i, &path, out),
                        }
                    }
                }
                Tok::Punct(_) => break,
            }
        }
        push_leaf(path, None, false, out);
    }
    fn push_leaf(mut path: Vec<String>, alias: Option<String>, glob: bool, out: &mut Vec<UseLeaf>) {
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
        }
        let name = alias.or_else(|| path.last().cloned());
        if !path.is_empty() {
            out.push(UseLeaf { path, name, glob });
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    walk(toks, &mut i, &[], &mut out);
    out
}

struct ModFile {
    path: PathBuf,
    module: Vec<String>,
    code: String,
    children: BTreeSet<String>,
    /// Names bound by `use` in the file's own module, to the path as written.
    uses: HashMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    /// Names of the items the file defines.
    defines: BTreeSet<String>,
}

struct Crate {
    files: Vec<ModFile>,
    by_module: HashMap<Vec<String>, usize>,
}

const ITEM_KEYWORDS: [&str; 9] = [
    "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod",
];

fn read_module(path: &Path, module: Vec<String>, files: &mut Vec<ModFile>) {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let code = without_tests(&blank_out(&text));
    let toks: Vec<Tok> = tokens(&code).into_iter().map(|(t, _)| t).collect();
    let (mut children, mut uses, mut globs, mut defines) =
        (BTreeSet::new(), HashMap::new(), Vec::new(), BTreeSet::new());
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Ident(k) if k == "use" && depth == 0 => {
                let end = toks[i..]
                    .iter()
                    .position(|t| *t == Tok::Punct(';'))
                    .map_or(toks.len(), |n| i + n);
                for leaf in use_leaves(&toks[i + 1..end]) {
                    if leaf.glob {
                        globs.push(leaf.path);
                    } else if let Some(name) = leaf.name {
                        uses.insert(name, leaf.path);
                    }
                }
                i = end;
            }
            Tok::Ident(k) if k == "macro_rules" => {
                if let Some(name) = ident(toks.get(i + 2).map(|t| (t.clone(), 0)).as_ref()) {
                    defines.insert(name.to_string());
                }
            }
            Tok::Ident(k) if ITEM_KEYWORDS.contains(&k.as_str()) => {
                if let Some(Tok::Ident(name)) = toks.get(i + 1) {
                    defines.insert(name.clone());
                    if k == "mod" && depth == 0 && toks.get(i + 2) == Some(&Tok::Punct(';')) {
                        children.insert(name.clone());
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let dir = if module.is_empty() || path.file_name().is_some_and(|n| n == "mod.rs") {
        path.parent().unwrap().to_path_buf()
    } else {
        path.with_extension("")
    };
    let kids: Vec<String> = children.iter().cloned().collect();
    files.push(ModFile {
        path: path.to_path_buf(),
        module: module.clone(),
        code,
        children,
        uses,
        globs,
        defines,
    });
    for kid in kids {
        let flat = dir.join(format!("{kid}.rs"));
        let nested = dir.join(&kid).join("mod.rs");
        let file = if flat.is_file() { flat } else { nested };
        let mut m = module.clone();
        m.push(kid);
        read_module(&file, m, files);
    }
}

fn read_crate(root_file: &Path) -> Crate {
    let mut files = Vec::new();
    read_module(root_file, Vec::new(), &mut files);
    let by_module = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.clone(), i))
        .collect();
    Crate { files, by_module }
}

impl Crate {
    /// `path` as written in the file `from`, made absolute from the crate root; `None` for another crate's.
    fn absolute(&self, from: usize, path: &[String]) -> Option<Vec<String>> {
        self.absolute_within(from, path, 0)
    }

    fn absolute_within(&self, from: usize, path: &[String], depth: usize) -> Option<Vec<String>> {
        let f = &self.files[from];
        if depth > 8 {
            return None;
        }
        let first = path.first()?;
        let mut base = f.module.clone();
        let mut rest = path;
        match first.as_str() {
            "crate" => {
                base.clear();
                rest = &path[1..];
            }
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            name if f.children.contains(name) => {}
            name => {
                // A name bound by `use`; one bound to a path that starts with itself is another crate's.
                let bound = f.uses.get(name)?;
                if bound.first().is_some_and(|s| s == name) {
                    return None;
                }
                let mut abs = self.absolute_within(from, bound, depth + 1)?;
                abs.extend_from_slice(&path[1..]);
                return Some(abs);
            }
        }
        base.extend_from_slice(rest);
        Some(base)
    }

    /// The file that defines what the absolute `path` names, following re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<usize> {
        let mut n = path.len();
        while !self.by_module.contains_key(&path[..n]) {
            n -= 1;
        }
        let file = self.by_module[&path[..n]];
        if n == path.len() || depth > 8 {
            return Some(file);
        }
        let name = &path[n];
        let f = &self.files[file];
        if f.defines.contains(name) {
            return Some(file);
        }
        if let Some(bound) = f.uses.get(name) {
            return Some(
                self.absolute(file, bound)
                    .and_then(|abs| self.resolve(&abs, depth + 1))
                    .unwrap_or(file),
            );
        }
        for glob in &f.globs {
            if let Some(mut abs) = self.absolute(file, glob) {
                abs.push(name.clone());
                if let Some(target) = self.resolve(&abs, depth + 1)
                    && self.files[target].defines.contains(name)
                {
                    return Some(target);
                }
            }
        }
        Some(file)
    }

    /// The files each file imports: by `use`, and by paths in its code that start with `crate`, `super`,
    /// `self` or one of its own submodules. An import of an enclosing module (a file's `mod.rs` or the
    /// crate root) is not counted: a module and its submodules are one unit, the parent declares the child.
    fn imports(&self) -> Vec<BTreeSet<usize>> {
        (0..self.files.len())
            .map(|from| {
                let f = &self.files[from];
                let mut paths: Vec<Vec<String>> = f.uses.values().cloned().collect();
                paths.extend(f.globs.iter().cloned());
                let toks = tokens(&f.code);
                for (k, (t, _)) in toks.iter().enumerate() {
                    let Tok::Ident(first) = t else { continue };
                    let starts = matches!(first.as_str(), "crate" | "super" | "self")
                        || f.children.contains(first);
                    if !starts || (k > 0 && toks[k - 1].0 == Tok::Path) {
                        continue;
                    }
                    let mut path = vec![first.clone()];
                    let mut j = k + 1;
                    while toks.get(j).map(|t| &t.0) == Some(&Tok::Path) {
                        match toks.get(j + 1) {
                            Some((Tok::Ident(s), _)) => path.push(s.clone()),
                            _ => break,
                        }
                        j += 2;
                    }
                    if path.len() > 1 {
                        paths.push(path);
                    }
                }
                paths
                    .iter()
                    .filter_map(|p| self.absolute(from, p))
                    .filter_map(|abs| self.resolve(&abs, 0))
                    .filter(|&to| {
                        let target = &self.files[to].module;
                        to != from && !f.module.starts_with(target)
                    })
                    .collect()
            })
            .collect()
    }
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn circles(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'e> {
        edges: &'e [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort_unstable();
                s.found.push(component);
            }
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.found
}

fn crate_circles(root_file: &str) -> Vec<Vec<String>> {
    let krate = read_crate(&root().join(root_file));
    let edges = krate.imports();
    circles(&edges)
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|i| {
                    let p = &krate.files[i].path;
                    p.strip_prefix(root()).unwrap_or(p).display().to_string()
                })
                .collect()
        })
        .collect()
}

/// The one deliberate circle: castling's geometry, the position and its moves, which call each other so
/// that castling is written once (docs/architecture.md, "The rules core").
const DELIBERATE_CIRCLE: [&str; 3] = [
    "crates/pgnkit/src/core/castling.rs",
    "crates/pgnkit/src/core/moves.rs",
    "crates/pgnkit/src/core/position.rs",
];

/// Circles still to break, each in files another change of issue 38 owns: they are allowed until then, and
/// this list only shrinks.
const CIRCLES_LEFT_TO_BREAK: [&[&str]; 0] = [];

/// Files that import each other in a loop, in the library, the jobs and the command: at most one, the
/// deliberate one. A crate cannot import another in a loop (Cargo forbids it), so only each crate's own
/// files are looked at.
#[test]
fn at_most_one_import_circle() {
    let mut all = Vec::new();
    for root_file in [
        "crates/pgnkit/src/lib.rs",
        "crates/pgnkit-jobs/src/lib.rs",
        "src/main.rs",
    ] {
        all.extend(crate_circles(root_file));
    }
    println!("import circles: {}", all.len());
    for c in &all {
        println!("  {}", c.join(" <-> "));
    }
    let others: Vec<&Vec<String>> = all
        .iter()
        .filter(|c| **c != DELIBERATE_CIRCLE)
        .filter(|c| {
            !CIRCLES_LEFT_TO_BREAK
                .iter()
                .any(|known| c.as_slice() == *known)
        })
        .collect();
    assert!(
        others.is_empty(),
        "import circles besides the deliberate one: {others:#?}"
    );
    assert!(all.len() <= 1 + CIRCLES_LEFT_TO_BREAK.len(), "{all:#?}");
}

/// The circle finder on a small crate written for the test: it finds the loop and nothing else.
#[test]
fn the_circle_finder_finds_a_loop_through_a_reexport() {
    let dir = crate::util::temp_dir("architecture", "circles");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("a")).unwrap();
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).unwrap();
    write(
        "lib.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub use a::x::Thing;\n",
    );
    write(
        "a/mod.rs",
        "pub mod x;\npub mod y;\nuse crate::b::helper;\n",
    );
    // x reaches b through the crate root's re-export; b calls back into x; y only imports x.
    write(
        "a/x.rs",
        "use std::fmt;\npub struct Thing;\npub fn go() { crate::b::helper(); }\n",
    );
    write(
        "a/y.rs",
        "use super::x::Thing; // crate::c::gone\nconst S: &str = \"crate::c::gone\";\n",
    );
    write(
        "b.rs",
        "use crate::Thing;\npub fn helper() {}\n#[cfg(test)]\nmod tests { use crate::c::*; }\n",
    );
    write("c.rs", "pub fn gone() { super::b::helper() }\n");
    let krate = read_crate(&dir.join("lib.rs"));
    let edges = krate.imports();
    let name = |i: usize| krate.files[i].module.join("::");
    let found: Vec<Vec<String>> = circles(&edges)
        .into_iter()
        .map(|c| c.into_iter().map(name).collect())
        .collect();
    assert_eq!(found, vec![vec!["a::x".to_string(), "b".to_string()]]);
}

// ---------------------------------------------------------------------------------------------------------
// The public surface of pgnkit-jobs, and the length of the CLI's functions.

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The `pub` declarations of the non-test code of a crate: `(items, fields)`. An item is a `pub` without a
/// restriction (`pub(crate)` and the like are not counted) before `fn` (methods included), `struct`,
/// `enum`, `trait`, `type`, `const`, `static`, `union`, `mod`, `use` (one per statement, whatever it
/// re-exports), or `unsafe`/`async`/`extern` before one of them; a field is a `pub` before anything else (a
/// named field `pub name:` or a tuple field `(pub T)`). Enum variants and trait items have no `pub` of
/// their own and are not counted.
fn public_items(src: &Path) -> (usize, usize) {
    let (mut items, mut fields) = (0, 0);
    for file in rust_files(src) {
        let code = without_tests(&blank_out(&fs::read_to_string(&file).unwrap()));
        let toks = tokens(&code);
        for (k, (t, _)) in toks.iter().enumerate() {
            if *t != Tok::Ident("pub".into())
                || toks.get(k + 1).map(|t| &t.0) == Some(&Tok::Punct('('))
            {
                continue;
            }
            match ident(toks.get(k + 1)) {
                Some(
                    "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union"
                    | "mod" | "use" | "unsafe" | "async" | "extern",
                ) => items += 1,
                _ => fields += 1,
            }
        }
    }
    (items, fields)
}

#[test]
fn the_jobs_public_surface_does_not_grow() {
    let (items, fields) = public_items(&root().join("crates/pgnkit-jobs/src"));
    println!("pgnkit-jobs: {items} pub items, {fields} pub fields");
    assert!(
        items <= MAX_JOBS_PUB_ITEMS,
        "{items} pub items in pgnkit-jobs, at most {MAX_JOBS_PUB_ITEMS}"
    );
    assert!(
        fields <= MAX_JOBS_PUB_FIELDS,
        "{fields} pub fields in pgnkit-jobs, at most {MAX_JOBS_PUB_FIELDS}"
    );
}

/// Every function of the non-test code under `dir` with its length in lines, longest first.
fn function_lengths(dir: &Path) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for file in rust_files(dir) {
        let code = without_tests(&blank_out(&fs::read_to_string(&file).unwrap()));
        let b = code.as_bytes();
        let toks = tokens(&code);
        for (k, (t, at)) in toks.iter().enumerate() {
            if *t != Tok::Ident("fn".into()) {
                continue;
            }
            let Some(name) = ident(toks.get(k + 1)) else {
                continue;
            };
            // The body: the first `{` after the signature, unless a `;` ends a declaration first.
            let Some(open) = toks[k..].iter().find_map(|(t, at)| match t {
                Tok::Punct('{') => Some(Some(*at)),
                Tok::Punct(';') => Some(None),
                _ => None,
            }) else {
                continue;
            };
            let Some(open) = open else { continue };
            let close = matching_brace(b, open);
            let lines = code[*at..close].lines().count();
            let rel = file
                .strip_prefix(root())
                .unwrap_or(&file)
                .display()
                .to_string();
            out.push((lines, format!("{rel}: fn {name}")));
        }
    }
    out.sort_by(|a, b| b.cmp(a));
    out
}

#[test]
fn no_cli_function_grows_past_the_limit() {
    let lengths = function_lengths(&root().join("src/cli"));
    for (lines, name) in lengths.iter().take(5) {
        println!("{lines:4} {name}");
    }
    let over: Vec<_> = lengths
        .iter()
        .filter(|(n, _)| *n > MAX_CLI_FN_LINES)
        .collect();
    assert!(
        over.is_empty(),
        "functions in src/cli over {MAX_CLI_FN_LINES} lines: {over:?}"
    );
}

// ---------------------------------------------------------------------------------------------------------
// docs/architecture.md names only what exists.

/// Every file of the repository's source and documentation (not `target/`, not hidden directories), as a
/// path from the root with `/`.
fn repository_paths() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root().to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy();
            if name.starts_with('.') || name == "target" || name == "node_modules" {
                continue;
            }
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if p.is_dir() {
                out.insert(format!("{rel}/"));
                stack.push(p);
            } else {
                out.insert(rel);
            }
        }
    }
    out
}

/// What the source says: the words of all Rust source (strings included, so column names count), the
/// names of the types it defines, and each module by its path from its crate (`pgn::lex`), with the file
/// it is in.
struct SourceNames {
    words: BTreeSet<String>,
    types: BTreeSet<String>,
    modules: BTreeMap<Vec<String>, PathBuf>,
}

fn source_names() -> SourceNames {
    let mut words = BTreeSet::new();
    let mut types = BTreeSet::new();
    let mut modules = BTreeMap::new();
    let crates = [
        ("crates/pgnkit/src/lib.rs", ["pgnkit", "pgnkit"]),
        ("crates/pgnkit-jobs/src/lib.rs", ["pgnkit_jobs", "jobs"]),
        ("src/main.rs", ["pgnkit_cli", "pgnkit_cli"]),
        ("python/src/lib.rs", ["_native", "_native"]),
        ("tests/integration/main.rs", ["integration", "integration"]),
    ];
    for (root_file, names) in crates {
        let krate = read_crate(&root().join(root_file));
        for f in &krate.files {
            let text = fs::read_to_string(&f.path).unwrap();
            for w in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !w.is_empty() {
                    words.insert(w.to_string());
                }
            }
            let toks = tokens(&f.code);
            for (k, (t, _)) in toks.iter().enumerate() {
                if let Tok::Ident(kw) = t
                    && matches!(kw.as_str(), "struct" | "enum" | "trait" | "type" | "union")
                    && let Some(name) = ident(toks.get(k + 1))
                {
                    types.insert(name.to_string());
                }
            }
            // Each module by every way the document may name it: from its crate, behind the crate's name.
            for name in names {
                let mut m = vec![name.to_string()];
                m.extend(f.module.iter().cloned());
                modules.insert(m, f.path.clone());
            }
            modules.insert(f.module.clone(), f.path.clone());
        }
    }
    SourceNames {
        words,
        types,
        modules,
    }
}

/// Why a backticked name of the document does not match the code, if it does not.
fn check_code_name(name: &str, paths: &BTreeSet<String>, src: &SourceNames) -> Option<String> {
    // A call as written (`walk::walk(game, ...)`, `san()`) or a macro (`include_str!`): the name before it.
    let name = name.split('(').next().unwrap().trim_end_matches('!');
    let is_file = name.ends_with('/')
        || [".rs", ".md", ".sh", ".py", ".pyi", ".toml"]
            .iter()
            .any(|e| name.ends_with(e));
    if is_file
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-./".contains(c))
    {
        // A path from the root, or the end of one (`stats/table.rs`, `pgn/model.rs`, `model.rs` in the
        // table of pgn's files).
        let found = paths.contains(name) || paths.iter().any(|p| p.ends_with(&format!("/{name}")));
        return (!found).then(|| format!("no file or directory `{name}`"));
    }
    let segments: Vec<&str> = name.split("::").collect();
    if !segments
        .iter()
        .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        return None; // not code: flags, PGN, commands
    }
    if segments
        .iter()
        .any(|s| s.chars().next().is_some_and(|c| c.is_ascii_digit()))
    {
        return None;
    }
    if segments.len() > 1 && matches!(segments[0], "clippy" | "rustdoc" | "rustc") {
        return None; // a lint's name
    }
    let last = *segments.last().unwrap();
    if segments.len() == 1 {
        return (!src.words.contains(last))
            .then(|| format!("`{name}` appears nowhere in the source"));
    }
    // a::b::c: the whole path is a module; or its front is a module (from some crate, as a suffix of the
    // module's path) and the last segment appears in that module's file or below it; or the front is a type
    // and the last segment appears in the source.
    let front: Vec<String> = segments[..segments.len() - 1]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let whole: Vec<String> = segments.iter().map(|s| s.to_string()).collect();
    let ends_with = |module: &Vec<String>, tail: &[String]| module.ends_with(tail);
    if src.modules.keys().any(|m| ends_with(m, &whole)) {
        return None;
    }
    let in_module = src
        .modules
        .iter()
        .filter(|(m, _)| ends_with(m, &front))
        .any(|(_, file)| {
            let dir = file.parent().unwrap();
            let own = fs::read_to_string(file).unwrap_or_default();
            let words = |t: &str| {
                t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|w| w == last)
            };
            words(&own)
                || (file
                    .file_name()
                    .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
                    && rust_files(dir)
                        .iter()
                        .any(|f| words(&fs::read_to_string(f).unwrap_or_default())))
        });
    if in_module {
        return None;
    }
    // A type, behind the module it is in or alone (`core::Position::key`, `Position::key`).
    let (ty, modules) = front.split_last().unwrap();
    let module_ok = modules.is_empty() || src.modules.keys().any(|m| ends_with(m, modules));
    if module_ok && src.types.contains(ty) && src.words.contains(last) {
        return None;
    }
    Some(format!(
        "`{name}`: no module or type `{}` with `{last}`",
        front.join("::")
    ))
}

#[test]
fn architecture_names_only_what_exists() {
    let doc = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let paths = repository_paths();
    let src = source_names();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (n, span) in doc.split('`').enumerate() {
        if n % 2 == 0 {
            continue;
        }
        checked += 1;
        if let Some(why) = check_code_name(span, &paths, &src) {
            wrong.push(why);
        }
    }
    println!("{checked} backticked names checked");
    assert!(
        wrong.is_empty(),
        "docs/architecture.md names what the code does not have:\n{}",
        wrong.join("\n")
    );
}

/// The checker catches names that are gone, and accepts those that are there.
#[test]
fn the_name_checker_tells_present_from_absent() {
    let paths = repository_paths();
    let src = source_names();
    for present in [
        "walk::walk",
        "pgn/model.rs",
        "Position::key",
        "pgn::lex::find_any",
        "run::pipeline::run_ordered",
    ] {
        assert_eq!(check_code_name(present, &paths, &src), None, "{present}");
    }
    // Spelled in pieces, since this file is among the sources searched.
    let nowhere = ["NEEDS", "BEFORE", "NOWHERE"].join("_");
    for absent in [
        "replay::walk",
        &nowhere,
        "pgn/absent.rs",
        "pgn::lex::no_such_fn",
        "Nope::key",
    ] {
        assert!(check_code_name(absent, &paths, &src).is_some(), "{absent}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// Sections of the documents that the code and the documents cite exist.

/// A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The headings of a Markdown file (outside code blocks), as written.
fn headings(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(line.trim_start_matches('#').trim().to_string());
        }
    }
    out
}

/// Comments and text of the repository's code and documents, each file's lines joined with their comment
/// markers taken off, so that a citation wrapped over two comment lines reads as one.
fn joined_text(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|l| {
            l.trim_start()
                .trim_start_matches("//!")
                .trim_start_matches("///")
                .trim_start_matches("//")
        })
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `docs/NAME.md, "Section"` in a comment names a heading of that document (its start), and a link
/// `NAME.md#anchor` an anchor of it: moving or renaming a section must bring its citations along.
#[test]
fn cited_sections_exist() {
    let paths = repository_paths();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for rel in paths.iter().filter(|p| {
        [".rs", ".md", ".sh", ".py", ".toml"]
            .iter()
            .any(|e| p.ends_with(e))
            && !p.starts_with("docs/notes/")
            && *p != "tests/integration/architecture.rs"
    }) {
        let text = joined_text(&root().join(rel));
        // docs/NAME.md, "Section"
        for (at, _) in text.match_indices("docs/") {
            let rest = &text[at..];
            let Some(md) = rest.find(".md") else { continue };
            let doc = &rest[..md + 3];
            if doc.contains(' ') {
                continue;
            }
            let after = &rest[md + 3..];
            let Some(quoted) = after.strip_prefix(", \"") else {
                continue;
            };
            let Some(end) = quoted.find('"') else {
                continue;
            };
            let section = &quoted[..end];
            checked += 1;
            let target = fs::read_to_string(root().join(doc)).unwrap_or_default();
            if !headings(&target).iter().any(|h| h.starts_with(section)) {
                wrong.push(format!("{rel}: {doc} has no section \"{section}\""));
            }
        }
        // (path/NAME.md#anchor): relative to the citing file's directory.
        for (at, _) in text.match_indices(".md#") {
            let start = text[..at].rfind(['(', ' ']).map_or(0, |i| i + 1);
            let end = text[at..]
                .find([')', ' ', ','])
                .map_or(text.len(), |i| at + i);
            let (doc, anchor_name) = text[start..end].split_once('#').unwrap();
            let base = Path::new(rel).parent().unwrap_or(Path::new(""));
            let Ok(target) = fs::read_to_string(root().join(base).join(doc)) else {
                wrong.push(format!("{rel}: no document {doc}"));
                continue;
            };
            checked += 1;
            if !headings(&target).iter().any(|h| anchor(h) == anchor_name) {
                wrong.push(format!("{rel}: {doc} has no anchor #{anchor_name}"));
            }
        }
    }
    println!("{checked} citations checked");
    // Some of them: the code's citations of the tuning constants, the README's and the guide's links.
    assert!(checked > 10, "the citations were not found: {checked}");
    assert!(
        wrong.is_empty(),
        "citations of sections that do not exist:\n{}",
        wrong.join("\n")
    );
}

/// docs/performance.md is the reference (targets, the latest figures, the tuning constants, how to measure);
/// the work log behind it is docs/notes/performance-log.md.
#[test]
fn the_performance_reference_stays_a_reference() {
    let lines = fs::read_to_string(root().join("docs/performance.md"))
        .unwrap()
        .lines()
        .count();
    println!("docs/performance.md: {lines} lines");
    assert!(
        lines <= 400,
        "docs/performance.md has {lines} lines: the work log goes to docs/notes/"
    );
    assert!(root().join("docs/notes/performance-log.md").is_file());
}
