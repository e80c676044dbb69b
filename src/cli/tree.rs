//! `pgnkit tree`: the opening tree of the games' main lines, as an explorer view, a table, a page or a
//! Polyglot book.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use pgnkit::core::Color;

use crate::jobs::localized;
use crate::jobs::messages::Explain;
use crate::jobs::options::TreeFormat;
use crate::jobs::run::{Input, JobError, ReadError, RunTotals, Sink, Sources};
use crate::jobs::tree::{
    DEFAULT_DEPTH, TreeBatch, TreeBuilder, TreeJob, TreeRequest, TreeState, TreeWritten,
    default_memory,
};

use super::output::{
    LangFlag, OutputFlag, RunFlags, choice, decimal_here, exit_code, failure, inputs, locale,
    no_games_warning, progress_bar, read_error, say, show_games, write_failure,
};
use super::sink::{self as sink_file, open_output};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Start the tree at this position instead of the initial one: a FEN, an EPD's four fields, or
    /// `startpos`. A game counts from its first arrival there
    #[arg(long = "from", value_name = "FEN")]
    from_fen: Option<String>,
    /// Start the tree after these moves (from --from, or the initial position), in SAN with or without
    /// numbers: "1. e4 c5 2. Nf3"
    #[arg(long, value_name = "MOVES")]
    from_moves: Option<String>,
    /// Half-moves from the root that the tree covers
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Leave out the moves played in fewer than K games (they still count in the positions they lead to)
    #[arg(long, value_name = "K", default_value_t = 1)]
    min_games: u64,
    /// Only the games of this player (the White or Black tag, compared without case)
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// With --player: only the games the player had this colour in (`white` or `black`)
    #[arg(long, value_name = "COLOR", requires = "player", value_parser = parse_color)]
    color: Option<Color>,
    /// Count the games for which EXPR holds, as select --where chooses them (`WhiteElo >= 2200 and
    /// Event ~ "Titled"`)
    #[arg(long = "where", value_name = "EXPR")]
    filter: Option<String>,
    /// `text` (the root position's moves, with bars for the results), `csv`, `jsonl`, `parquet` (typed
    /// columns), `html` (a page of linked positions with boards) or `polyglot` (an opening book). Default:
    /// from the name given to -o (.csv, .jsonl, .parquet, .html, .bin), else text
    #[arg(long, value_parser = choice::<TreeFormat>())]
    format: Option<TreeFormat>,
    /// Memory for the counts (512M, 4G...): past it, sorted runs go to temporary files and are merged at
    /// the end. Default: a quarter of the memory the machine (or the container) has
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    memory: Option<usize>,
    /// Where the runs go when the counts pass --memory. Default: beside -o FILE, else the system's
    /// temporary directory
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,
    #[command(flatten)]
    output: OutputFlag,
    #[command(flatten)]
    lang: LangFlag,
    #[command(flatten)]
    run: RunFlags,
}

/// `white` or `black` (`blancs`, `noirs` too).
fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" | "blancs" | "blanc" => Ok(Color::White),
        "black" | "b" | "noirs" | "noir" => Ok(Color::Black),
        _ => Err(format!("'{text}': use white or black")),
    }
}

/// A size in bytes: a number, with K, M, G or T (powers of 1024), an optional `B` or `iB` after it.
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let number = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match number.chars().last() {
        Some('K') => (&number[..number.len() - 1], 10),
        Some('M') => (&number[..number.len() - 1], 20),
        Some('G') => (&number[..number.len() - 1], 30),
        Some('T') => (&number[..number.len() - 1], 40),
        _ => (number, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{text}': a size such as 512M or 4G"))?;
    n.checked_mul(1 << shift)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("'{text}': too large"))
}

/// The format a file name asks for.
fn format_of_name(path: &Path) -> Option<TreeFormat> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = [".gz", ".zst", ".zstd"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(&name);
    let ends = |ext: &str| name.ends_with(ext);
    if ends(".parquet") {
        Some(TreeFormat::Parquet)
    } else if ends(".jsonl") || ends(".ndjson") {
        Some(TreeFormat::Jsonl)
    } else if ends(".csv") {
        Some(TreeFormat::Csv)
    } else if ends(".html") || ends(".htm") {
        Some(TreeFormat::Html)
    } else if ends(".bin") {
        Some(TreeFormat::Polyglot)
    } else {
        None
    }
}

/// The format of the run, or why the output cannot take it; `None` once said.
fn choose_format(args: &Args) -> Option<TreeFormat> {
    let output = args.output.output.as_deref();
    let named = output.and_then(format_of_name);
    let refuse = |text: String| {
        let _ = say(&format!("pgnkit: {text}\n"));
        None
    };
    let format = match (args.format, named) {
        (Some(asked), Some(named)) if asked != named => {
            return refuse(localized!(
                locale(),
                "--format {} but the output is named {}",
                "--format {} mais la sortie s'appelle {}",
                name_of(asked),
                output.map(|p| p.display().to_string()).unwrap_or_default()
            ));
        }
        (Some(asked), _) => asked,
        (None, Some(named)) => named,
        (None, None) => TreeFormat::Text,
    };
    if matches!(format, TreeFormat::Parquet | TreeFormat::Polyglot) {
        match output {
            None if std::io::IsTerminal::is_terminal(&io::stdout()) => {
                return refuse(localized!(
                    locale(),
                    "--format {} is binary: give a file with -o FILE, or redirect standard output",
                    "--format {} est binaire : donnez un fichier avec -o FICHIER, ou redirigez la sortie standard",
                    name_of(format)
                ));
            }
            Some(path) if sink_file::packing_of(path) != sink_file::Packing::Plain => {
                return refuse(localized!(
                    locale(),
                    "--format {} cannot be compressed by its name ({})",
                    "--format {} ne peut pas être compressé par son nom ({})",
                    name_of(format),
                    path.display()
                ));
            }
            _ => {}
        }
    }
    Some(format)
}

fn name_of(format: TreeFormat) -> &'static str {
    use crate::jobs::options::Choices;
    TreeFormat::CHOICES
        .iter()
        .find(|(_, f, _)| *f == format)
        .map_or("", |(name, _, _)| name)
}

pub(crate) fn run(args: Args) -> i32 {
    let Some(format) = choose_format(&args) else {
        return 2;
    };
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let Some(mut out) = open_output(args.output.output.as_deref(), &sources) else {
        return 2;
    };
    // Runs go beside the output, on the disk that is to hold the tree anyway, else where TMPDIR says.
    let spill_dir = args.temp_dir.clone().unwrap_or_else(|| {
        out.staging_dir()
            .map_or_else(std::env::temp_dir, Path::to_path_buf)
    });
    let request = TreeRequest {
        filter: args.filter.as_deref(),
        from_fen: args.from_fen.as_deref(),
        from_moves: args.from_moves.as_deref(),
        player: args.player.as_deref(),
        color: args.color,
        lang: args.lang.lang.0,
        depth: args.depth,
        min_games: args.min_games,
        memory: args.memory.unwrap_or_else(default_memory),
        spill_dir,
    };
    let job = match TreeJob::new(request) {
        Ok(job) => job,
        Err(e) => {
            let _ = say(&format!("pgnkit: {}\n", e.explain(locale())));
            return 2;
        }
    };
    let threads = args.run.threads();
    let mut builder = Builder {
        tree: job.builder(),
        bar: progress_bar(&sources, args.run.quiet),
    };
    let started = Instant::now();
    let finished = crate::jobs::run::run(&sources, threads, &job, &mut builder);
    builder.bar.finish_and_clear();
    let finished = match finished {
        Ok(finished) => finished,
        Err(e) => return failure(&e),
    };
    let runs = builder.tree.spilled_runs();
    let written = match builder.tree.finish().write(format, &mut out, locale()) {
        Ok(written) => written,
        Err(e) => return failure(&e),
    };
    if let Err(e) = out.flush() {
        return write_failure(&e);
    }
    let missing = job.missing_tags(&finished.state);
    if let Err(e) = warnings(&finished.state, &finished.totals, &missing, &sources) {
        return write_failure(&e);
    }
    if !args.run.quiet
        && let Err(e) = say(&closing_line(
            &finished.state,
            &finished.totals,
            written,
            runs,
            started,
        ))
    {
        return write_failure(&e);
    }
    // 1 when the tree is empty (no game reached the root), as select says it chose nothing.
    out.close(exit_code(
        finished.totals.read_errors,
        finished.state.counted == 0,
    ))
}

/// What the run did, said on standard error.
fn closing_line(
    state: &TreeState,
    totals: &RunTotals,
    written: TreeWritten,
    runs: usize,
    started: Instant,
) -> String {
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let spilled = if runs > 0 {
        localized!(
            locale(),
            ", {runs} sorted runs merged",
            ", {runs} séquences triées fusionnées"
        )
    } else {
        String::new()
    };
    localized!(
        locale(),
        "pgnkit tree: {} games read, {} in the tree; {} moves of {} positions written{}; {} MB in {} s ({} MB/s, {:.0} games/s)\n",
        "pgnkit tree : {} parties lues, {} dans l'arbre ; {} coups de {} positions écrits{} ; {} Mo en {} s ({} Mo/s, {:.0} parties/s)\n",
        state.games,
        state.counted,
        written.rows,
        written.positions,
        spilled,
        decimal_here(totals.bytes as f64 / 1e6, 1),
        decimal_here(secs, 2),
        decimal_here(totals.bytes as f64 / 1e6 / secs, 1),
        state.games as f64 / secs
    )
}

/// The warnings of a finished run: no game at all, no game in the tree; tags `--where` names that no game
/// has.
fn warnings(
    state: &TreeState,
    totals: &RunTotals,
    missing: &[impl Explain],
    sources: &Sources,
) -> io::Result<()> {
    if state.games == 0 && totals.read_errors == 0 {
        say(&no_games_warning(sources))?;
    } else if state.counted == 0 && state.games > 0 {
        say(&localized!(
            locale(),
            "warning[empty_tree]: no game chosen plays a move from the root position\n",
            "avertissement[empty_tree] : aucune partie choisie ne joue de coup depuis la position de départ\n"
        ))?;
    }
    for m in missing {
        say(&localized!(
            locale(),
            "warning[unknown_tag]: --where: {}\n",
            "avertissement[unknown_tag] : --where : {}\n",
            m.explain(locale())
        ))?;
    }
    Ok(())
}

/// Where the batches go: into the tree.
struct Builder {
    tree: TreeBuilder,
    bar: indicatif::ProgressBar,
}

impl Sink<TreeJob> for Builder {
    fn batch(
        &mut self,
        _: Input<'_>,
        batch: &mut TreeBatch,
        state: &TreeState,
    ) -> Result<(), JobError> {
        self.tree.add(batch)?;
        show_games(&self.bar, state.games);
        Ok(())
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Ok(read_error(&self.bar, &error.to_string())?)
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_their_units() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4g"), Ok(4 << 30));
        assert_eq!(parse_size("64KiB"), Ok(64 << 10));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
    }

    #[test]
    fn names_choose_formats() {
        assert_eq!(
            format_of_name(Path::new("t.parquet")),
            Some(TreeFormat::Parquet)
        );
        assert_eq!(
            format_of_name(Path::new("book.bin")),
            Some(TreeFormat::Polyglot)
        );
        assert_eq!(format_of_name(Path::new("t.csv.gz")), Some(TreeFormat::Csv));
        assert_eq!(format_of_name(Path::new("t.txt")), None);
    }
}
