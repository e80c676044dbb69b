//! `convert`: every game replayed (see [`pgnkit::walk`]) and written again — PGN in export format
//! with the moves in canonical SAN of any language, LAN or UCI (through [`pgnkit::pgn::writer`]), JSON lines,
//! or EPD lines of the main line's positions. A pure function of a batch's bytes, so batches convert on
//! any thread; the run layer (`crate::run`) puts the results back in input order.
//!
//! A game is converted only when everything in it replays: the reader found no error, the variant and
//! FEN tag give a start position, and every move token, variations included, is a legal move in the
//! game's language (detected per game unless given). Anything else is a `Failure`, located in the
//! game's source and explained in validate's words ([`Note`]): the game is then copied through, its bytes
//! unchanged but for a comment that marks it as not converted (PGN), given as a record with its error (JSON
//! lines), or left out (EPD, or when asked to skip invalid games), and counted.

pub(crate) use crate::options::{Notation, OutputFormat};
use std::fmt::{self, Write as _};

use std::sync::Arc;

use super::validate::{
    Finding, Problem, ProblemKind, Severity, TagText, ValidateOptions, problem_at, validate_game,
};
use crate::messages::Locale;
use pgnkit::core::GameState;
use pgnkit::core::fen;
use pgnkit::notation::Language;
use pgnkit::openings::{self, Classifier, Opening, OpeningTable};
use pgnkit::pgn::writer::{Keep, PrintedMoves, WriteError, Writer, export_result};
use pgnkit::pgn::{DiagnosticKind, Game, GameReader, Span, TokenKind};
use pgnkit::repair;
use pgnkit::walk::{self, Confidence, MoveFailure, SetupError, WalkOptions};

mod job;
mod records;
mod render;

pub use job::ConvertJob;

use records::{ErrorRecord, InvalidRecord, Record, TagsJson, write_marked};
use render::Render;

/// What the user asked of convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvertOptions {
    /// Piece letters to write.
    pub to: Language,
    /// Piece letters to read; `None` detects them per game.
    pub from: Option<Language>,
    pub notation: Notation,
    pub format: OutputFormat,
    pub keep: Keep,
    /// Leave out games that cannot be converted (else PGN copies them through, JSON lines records them).
    pub skip_invalid: bool,
    /// PGN: set the `ECO`, `Opening` and `Variation` tags to the opening the main line reaches
    /// ([`pgnkit::openings`]); a game that reaches none keeps its own.
    pub add_opening: bool,
    /// The language of the notes about games (and of the comment that marks a game copied unconverted).
    pub messages: Locale,
    /// A game whose main line does not replay is converted with its certain repair (`pgnkit repair`'s, with
    /// its comments), when it has one.
    pub repair: bool,
}

impl Default for ConvertOptions {
    fn default() -> ConvertOptions {
        ConvertOptions {
            to: Language::En,
            from: None,
            notation: Notation::San,
            format: OutputFormat::Pgn,
            keep: Keep::default(),
            skip_invalid: false,
            add_opening: false,
            messages: Locale::En,
            repair: false,
        }
    }
}

/// Why a game could not be converted.
#[derive(Clone, Debug)]
pub(crate) enum Failure {
    /// The reader found an error (unreadable text, unclosed comment or variation...).
    Reader { kind: DiagnosticKind, span: Span },
    /// No start position: unsupported variant or bad FEN tag.
    Setup(SetupError),
    /// A move token that gives no move, in the main line or a variation.
    Move {
        span: Span,
        text: String,
        in_variation: bool,
        failure: MoveFailure,
    },
    /// The writer could not place a token (a move not replayed, or unknown text).
    Write(WriteError),
}

impl Failure {
    /// Where in the game's source.
    pub(crate) fn span(&self) -> Span {
        match self {
            Failure::Reader { span, .. } | Failure::Move { span, .. } => *span,
            Failure::Setup(SetupError::UnsupportedVariant { span, .. })
            | Failure::Setup(SetupError::InvalidFen { span, .. }) => *span,
            Failure::Write(e) => e.span(),
        }
    }
}

impl Failure {
    /// What validate would say of it: how convert explains a game not converted when validate finds no error
    /// in it.
    fn finding(&self) -> Finding {
        match self {
            Failure::Reader { kind, .. } => Finding::Reader(*kind),
            Failure::Setup(SetupError::UnsupportedVariant { name, .. }) => {
                Finding::UnsupportedVariant { name: name.clone() }
            }
            Failure::Setup(SetupError::InvalidFen { problems, .. }) => Finding::InvalidFen {
                problems: problems.clone(),
            },
            Failure::Move { text, failure, .. } => Finding::Move {
                token: text.clone(),
                failure: *failure,
                unchecked: 0,
            },
            Failure::Write(e) => Finding::Unwritable(*e),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Reader { kind, .. } => write!(f, "{kind}"),
            Failure::Setup(SetupError::UnsupportedVariant { name, .. }) => write!(
                f,
                "variant \"{name}\" is not supported (only standard chess and Chess960)"
            ),
            Failure::Setup(SetupError::InvalidFen { problems, .. }) => {
                let problems: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                write!(
                    f,
                    "the FEN tag is not a legal position: {}",
                    problems.join("; ")
                )
            }
            Failure::Move {
                text,
                in_variation,
                failure,
                ..
            } => {
                let place = if *in_variation {
                    " (in a variation)"
                } else {
                    ""
                };
                match failure {
                    MoveFailure::Syntax(e) => {
                        write!(f, "cannot read \"{text}\"{place} as a move: {}", e.kind)
                    }
                    MoveFailure::San(e) => write!(f, "\"{text}\"{place}: {e}"),
                    MoveFailure::GameOver { checkmate } => write!(
                        f,
                        "\"{text}\"{place} follows {}: no move can",
                        if *checkmate { "checkmate" } else { "stalemate" }
                    ),
                    MoveFailure::Unknown => {
                        write!(
                            f,
                            "cannot read \"{text}\"{place} as a move or any other PGN token"
                        )
                    }
                }
            }
            Failure::Write(e) => write!(f, "{e}"),
        }
    }
}

/// How serious a note is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoteLevel {
    /// The game was converted; something about it deserves a look.
    Warning,
    /// The game was not converted.
    Error,
}

/// What convert found in one game, for stderr: validate's problems (the same words, locations and source
/// lines), and what became of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub(crate) level: NoteLevel,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The players and round, for the heading of each problem.
    pub white: TagText,
    pub black: TagText,
    pub round: TagText,
    /// The problems, in file order: for a game not converted, the errors validate finds in it.
    pub problems: Vec<Problem>,
    /// For a game not converted: `copied unchanged`, `skipped` or `recorded with its error`.
    pub action: Option<&'static str>,
}

/// A note on `game` for stderr.
fn game_note(
    game: &Game<'_>,
    level: NoteLevel,
    problems: Vec<Problem>,
    action: Option<&'static str>,
) -> Note {
    let tag = |name: &str| {
        game.tag(name)
            .map_or_else(TagText::default, |v| TagText::new(&v))
    };
    Note {
        level,
        game: game.index + 1,
        white: tag("White"),
        black: tag("Black"),
        round: tag("Round"),
        problems,
        action,
    }
}

/// What became of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    Converted,
    /// Not converted; its original bytes were written (PGN) or its error recorded (JSON lines).
    Kept,
    /// Not converted and not written.
    Skipped,
}

/// The result of converting a batch: the output bytes, in game order, and what happened.
#[derive(Clone, Debug, Default)]
pub struct BatchOutput {
    pub text: Vec<u8>,
    pub games: u64,
    pub converted: u64,
    /// Of the converted games, those converted with their repair (`ConvertOptions::repair`).
    pub repaired: u64,
    pub kept: u64,
    pub skipped: u64,
    pub notes: Vec<Note>,
}

/// Converts games one after the other, reusing its buffers.
pub(crate) struct Converter {
    opts: ConvertOptions,
    writer: Writer,
    moves: PrintedMoves,
    /// Main-line SAN and UCI (JSON lines), or EPD lines.
    main_san: String,
    main_uci: String,
    epd: String,
    /// Games converted with their repair so far.
    repaired: u64,
}

/// What [`Converter::replay`] found for a game.
struct Rendered {
    state: GameState,
    opening: Option<&'static Opening>,
    lang: Language,
    confidence: Confidence,
    guessed_among: Vec<Language>,
}

impl Converter {
    pub(crate) fn new(opts: ConvertOptions) -> Converter {
        Converter {
            opts,
            writer: Writer::new(opts.keep),
            moves: PrintedMoves::default(),
            main_san: String::new(),
            main_uci: String::new(),
            epd: String::new(),
            repaired: 0,
        }
    }

    /// Replays a game, filling the move table (PGN) or the main-line strings (JSON lines, EPD).
    fn replay(&mut self, game: &Game<'_>) -> Result<Rendered, Failure> {
        if let Some(d) = game.errors().next() {
            return Err(Failure::Reader {
                kind: d.kind,
                span: d.span,
            });
        }
        let prepared = walk::prepare(game, self.opts.from).map_err(Failure::Setup)?;
        self.moves.reset(game.tokens.len());
        self.main_san.clear();
        self.main_uci.clear();
        self.epd.clear();
        let mut render = Render {
            moves: &mut self.moves,
            notation: self.opts.notation,
            lang: self.opts.to,
            format: self.opts.format,
            main_san: &mut self.main_san,
            main_uci: &mut self.main_uci,
            epd: &mut self.epd,
            game_number: game.index + 1,
            failure: None,
            source: game,
            openings: Classifier::new(if self.opts.add_opening {
                openings::table()
            } else {
                OpeningTable::empty()
            }),
        };
        // Only JSON lines tell how the game ended.
        let options = WalkOptions {
            moves_only: self.opts.format != OutputFormat::Jsonl,
            ..WalkOptions::default()
        };
        let walk = walk::walk(game, &prepared, options, &mut render);
        let opening = render.openings.opening();
        if let Some(failure) = render.failure {
            return Err(failure);
        }
        if self.opts.format == OutputFormat::Epd && walk.state.ply() == 0 {
            // A game without moves still has its start position.
            let _ = writeln!(
                self.epd,
                "{} id \"game {} ply 0\";",
                fen::to_epd(&prepared.start),
                game.index + 1
            );
        }
        Ok(Rendered {
            state: walk.state,
            opening,
            lang: prepared.lang.lang,
            confidence: prepared.lang.confidence,
            guessed_among: prepared.lang.guessed_among,
        })
    }

    /// Converts one game, appending what is to be written to `out`. `file` names the input in JSON lines.
    pub(crate) fn convert_game(
        &mut self,
        game: &Game<'_>,
        file: &str,
        out: &mut Vec<u8>,
        notes: &mut Vec<Note>,
    ) -> Fate {
        let note = |level, problems: Vec<Problem>, action| game_note(game, level, problems, action);
        let warning = |finding, span| {
            let mut problem = problem_at(game, finding, span);
            problem.severity = Severity::Warning;
            vec![problem]
        };
        let replayed = self.replay(game).and_then(|r| {
            if self.opts.format == OutputFormat::Pgn {
                self.writer
                    .write_game_with_tags(game, &self.moves, &opening_tags(r.opening), out)
                    .map_err(Failure::Write)?;
            }
            Ok(r)
        });
        let replayed = match replayed {
            Ok(r) => r,
            Err(
                failure @ Failure::Move {
                    in_variation: false,
                    ..
                },
            ) if self.opts.repair => {
                if let Some(fate) = self.convert_repaired(game, file, &failure, out, notes) {
                    return fate;
                }
                return self.not_converted(game, file, &failure, out, notes);
            }
            Err(failure) => return self.not_converted(game, file, &failure, out, notes),
        };
        if replayed.confidence == Confidence::Guessed && replayed.guessed_among.len() > 1 {
            let first = game
                .main_line()
                .next()
                .map_or(Span::default(), |(t, _)| t.span);
            let finding = Finding::LanguageGuessed {
                among: replayed.guessed_among.clone(),
                chosen: replayed.lang,
            };
            let problems = warning(finding, first);
            notes.push(note(NoteLevel::Warning, problems, None));
        }
        let result = export_result(game);
        if let Some(marker) = game.result
            && marker != result
            && self.opts.format == OutputFormat::Pgn
        {
            let span = game
                .tokens
                .iter()
                .rev()
                .find(|t| matches!(t.kind, TokenKind::Result(_)))
                .map_or(Span::default(), |t| t.span);
            let finding = Finding::ResultRewritten {
                marker,
                written: result,
            };
            let problems = warning(finding, span);
            notes.push(note(NoteLevel::Warning, problems, None));
        }
        match self.opts.format {
            OutputFormat::Pgn => {}
            OutputFormat::Epd => out.extend_from_slice(self.epd.as_bytes()),
            OutputFormat::Jsonl => {
                let record = Record {
                    file,
                    game: game.index + 1,
                    converted: true,
                    tags: TagsJson(game),
                    lang: replayed.lang,
                    lang_confidence: replayed.confidence,
                    result,
                    termination: replayed.state.termination(),
                    plies: replayed.state.ply(),
                    san: &self.main_san,
                    uci: &self.main_uci,
                };
                let _ = serde_json::to_writer(&mut *out, &record);
                out.push(b'\n');
            }
        }
        Fate::Converted
    }

    /// A game that cannot be converted: kept, skipped or recorded as the options say, with a note.
    fn not_converted(
        &mut self,
        game: &Game<'_>,
        file: &str,
        failure: &Failure,
        out: &mut Vec<u8>,
        notes: &mut Vec<Note>,
    ) -> Fate {
        let fr = self.opts.messages == Locale::Fr;
        let action = match (self.opts.skip_invalid, self.opts.format, fr) {
            (true, _, false) | (false, OutputFormat::Epd, false) => "skipped",
            (true, _, true) | (false, OutputFormat::Epd, true) => "ignorée",
            (false, OutputFormat::Pgn, false) => "copied unchanged, marked by a comment",
            (false, OutputFormat::Pgn, true) => "copiée telle quelle, signalée par un commentaire",
            (false, OutputFormat::Jsonl, false) => "recorded with its error",
            (false, OutputFormat::Jsonl, true) => "enregistrée avec son erreur",
        };
        let problems = self.explain(game, file, failure);
        let fate = self.keep_invalid(game, file, &problems[0], out);
        notes.push(game_note(game, NoteLevel::Error, problems, Some(action)));
        fate
    }

    /// A game whose main line stops, converted with its certain repair (the text `pgnkit repair` writes);
    /// `None` when it has none, or when the repaired game still cannot be converted.
    fn convert_repaired(
        &mut self,
        game: &Game<'_>,
        file: &str,
        failure: &Failure,
        out: &mut Vec<u8>,
        notes: &mut Vec<Note>,
    ) -> Option<Fate> {
        let prepared = walk::prepare(game, self.opts.from).ok()?;
        let diagnosis = repair::diagnose(game, &prepared, &repair::RepairOptions::default())?;
        let fix = diagnosis.repair()?;
        let text = repair::repaired_text(game, &prepared, &diagnosis, fix, self.opts.messages);
        let mut games = pgnkit::pgn::parse_all(&text);
        let mut repaired = games.pop().filter(|_| games.is_empty())?;
        repaired.index = game.index;
        repaired.line = game.line;
        repaired.offset = game.offset;
        self.replay(&repaired).ok()?;
        let mut problems = self.explain(game, file, failure);
        for p in &mut problems {
            p.severity = Severity::Warning;
        }
        let before = notes.len();
        let fate = self.convert_game(&repaired, file, out, notes);
        self.repaired += u64::from(fate == Fate::Converted);
        let action = if self.opts.messages == Locale::Fr {
            "corrigée (un commentaire à la correction dit ce qui était écrit), puis convertie"
        } else {
            "repaired (a comment at the correction says what was written), then converted"
        };
        notes.insert(
            before,
            game_note(game, NoteLevel::Warning, problems, Some(action)),
        );
        Some(fate)
    }

    /// Why a game was not converted, in validate's words: the errors validate finds in it (a result that
    /// differs from its tag aside: convert writes the tag's), or the failure itself when validate has nothing
    /// to say (the writer could not place a token).
    fn explain(&self, game: &Game<'_>, file: &str, failure: &Failure) -> Vec<Problem> {
        let opts = ValidateOptions {
            lang: self.opts.from,
            report_tags: true,
            messages: self.opts.messages,
            ..ValidateOptions::default()
        };
        let report = validate_game(game, &Arc::from(file), &opts);
        let mut problems: Vec<Problem> = report
            .problems
            .into_iter()
            .filter(|p| p.severity == Severity::Error && p.kind() != ProblemKind::ResultMismatch)
            .collect();
        if problems.is_empty() {
            let mut problem = problem_at(game, failure.finding(), failure.span());
            problem.in_variation = matches!(
                failure,
                Failure::Move {
                    in_variation: true,
                    ..
                }
            );
            problems.push(problem);
        }
        problems
    }

    fn keep_invalid(
        &mut self,
        game: &Game<'_>,
        file: &str,
        problem: &Problem,
        out: &mut Vec<u8>,
    ) -> Fate {
        if self.opts.skip_invalid {
            return Fate::Skipped;
        }
        match self.opts.format {
            OutputFormat::Epd => Fate::Skipped,
            OutputFormat::Pgn => {
                write_marked(game, problem, self.opts.messages, out);
                Fate::Kept
            }
            OutputFormat::Jsonl => {
                // From the first tag or token, as the PGN output copies it (`write_marked`).
                let content = &game.source[game.content().start as usize..];
                let pgn = pgnkit::pgn::decode(content, game.encoding);
                let record = InvalidRecord {
                    file,
                    game: game.index + 1,
                    converted: false,
                    tags: TagsJson(game),
                    error: ErrorRecord {
                        line: problem.line,
                        column: problem.column,
                        message: problem.message(self.opts.messages),
                    },
                    pgn: pgn.trim_end(),
                };
                let _ = serde_json::to_writer(&mut *out, &record);
                out.push(b'\n');
                Fate::Kept
            }
        }
    }
}

/// The tags `--add-opening` sets: `ECO`, `Opening` (the name's family) and `Variation` (the rest of the name,
/// or no such tag); nothing when the game reached no named opening.
fn opening_tags(opening: Option<&'static Opening>) -> Vec<(&'static str, Option<&'static str>)> {
    match opening {
        Some(o) => vec![
            ("ECO", Some(o.eco)),
            ("Opening", Some(o.family())),
            ("Variation", o.variation()),
        ],
        None => Vec::new(),
    }
}

/// Converts every game of a batch.
pub(crate) fn convert_batch(
    games: &mut GameReader<'_>,
    file: &str,
    opts: &ConvertOptions,
) -> BatchOutput {
    convert_games(games, file, opts)
}

/// Converts a whole buffer on the calling thread (tests, small inputs); a leading BOM is skipped.
#[cfg(test)]
pub(crate) fn convert_bytes(bytes: &[u8], file: &str, opts: &ConvertOptions) -> BatchOutput {
    convert_games(&mut GameReader::new(bytes), file, opts)
}

fn convert_games(games: &mut GameReader<'_>, file: &str, opts: &ConvertOptions) -> BatchOutput {
    let mut converter = Converter::new(*opts);
    let mut output = BatchOutput::default();
    while let Some(group) = games.next_group() {
        // Read a group, then convert it: the reader's code and the converter's each serve the whole group
        // while in the instruction cache.
        for game in group {
            output.games += 1;
            match converter.convert_game(game, file, &mut output.text, &mut output.notes) {
                Fate::Converted => output.converted += 1,
                Fate::Kept => output.kept += 1,
                Fate::Skipped => output.skipped += 1,
            }
        }
    }
    output.repaired = converter.repaired;
    output
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::pgn::parse_all;

    fn convert(text: &str, opts: ConvertOptions) -> (String, BatchOutput) {
        let out = convert_bytes(text.as_bytes(), "test.pgn", &opts);
        (String::from_utf8_lossy(&out.text).into_owned(), out)
    }

    #[test]
    fn french_to_english_with_everything_kept() {
        let fr = "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Fb5 {espagnole} a6 \
                  (3... Cf6 4. O-O $1) 4. Fa4 Cf6 5. O-O Fe7 6. Te1 b5 7. Fb3 d6 8. c3 O-O 1-0\n";
        let (out, res) = convert(fr, ConvertOptions::default());
        assert_eq!(res.converted, 1, "{:?}", res.notes);
        assert!(
            out.contains(
                "1. e4 e5 2. Nf3 Nc6 3. Bb5 {espagnole} 3... a6 (3... Nf6 4. O-O $1) 4. Ba4 Nf6"
            ),
            "{out}"
        );
        assert!(out.contains("6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0"), "{out}");
        // And back to French.
        let to_fr = ConvertOptions {
            to: Language::Fr,
            ..ConvertOptions::default()
        };
        let (back, _) = convert(&out, to_fr);
        assert!(
            back.contains("2. Cf3 Cc6 3. Fb5 {espagnole} 3... a6 (3... Cf6 4. O-O $1)"),
            "{back}"
        );
        let (again, _) = convert(&back, ConvertOptions::default());
        assert_eq!(again, out);
    }

    #[test]
    fn check_marks_and_disambiguation_are_made_canonical() {
        let (out, res) = convert(
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Ng8e7 4. Qxf7 1-0",
            ConvertOptions::default(),
        );
        assert_eq!(res.converted, 1);
        assert!(
            out.contains("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nge7 4. Qxf7# 1-0"),
            "{out}"
        );
    }

    #[test]
    fn games_that_do_not_replay_are_located_and_kept_or_skipped() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Ke3 Kxe3 *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let (out, res) = convert(text, ConvertOptions::default());
        assert_eq!(
            (res.games, res.converted, res.kept, res.skipped),
            (3, 2, 1, 0)
        );
        // Copied byte for byte, but for a comment before the movetext that says why.
        assert!(
            out.contains(
                "[Event \"b\"]\n\n{pgnkit: not converted: illegal: e7 is occupied by Black's own pawn \
                 (2 later moves of the main line left unchecked) (line 7, column 7)}\n\
                 1. e4 Ke7 2. Ke3 Kxe3 *\n\n[Event \"c\"]"
            ),
            "{out}"
        );
        let note = &res.notes[0];
        assert_eq!((note.level, note.game), (NoteLevel::Error, 2));
        assert_eq!(note.action, Some("copied unchanged, marked by a comment"));
        // validate's problem, as validate gives it
        let problem = &note.problems[0];
        assert_eq!(
            (problem.kind(), problem.line, problem.column),
            (ProblemKind::NoPieceCanReach, 7, 7)
        );
        assert_eq!(problem.move_text.as_deref(), Some("Ke7"));
        let skip = ConvertOptions {
            skip_invalid: true,
            ..ConvertOptions::default()
        };
        let (out, res) = convert(text, skip);
        assert_eq!((res.converted, res.kept, res.skipped), (2, 0, 1));
        assert!(!out.contains("\"b\""));
        // A failure inside a variation counts too; so do reader errors and bad set-ups.
        for bad in [
            "1. e4 (1. e5) e5 *",
            "1. e4 e5 pawn 2. Nf3 *",
            "[Variant \"Crazyhouse\"]\n\n1. e4 *",
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 1-0",
        ] {
            let (out, res) = convert(bad, ConvertOptions::default());
            assert_eq!(res.kept, 1, "{bad}");
            // the original with the mark: take the mark out and the bytes are the game's
            let start = out.find("{pgnkit: not converted: ").expect("the mark");
            let end = start + out[start..].find('}').unwrap() + 1;
            // the mark and the line break after it (tags), or the space before it (no tags)
            let unmarked = if out[..start].ends_with('\n') && out[end..].starts_with('\n') {
                [&out[..start], &out[end + 1..]].concat()
            } else {
                [&out[..start - 1], &out[end..]].concat()
            };
            assert_eq!(unmarked.trim_end(), bad, "{out}");
            assert!(
                res.notes[0].problems[0].severity == Severity::Error,
                "{bad}"
            );
        }
    }

    #[test]
    fn notations_and_formats() {
        let text = "[Event \"x\"]\n[White \"W\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let lan_opts = ConvertOptions {
            notation: Notation::Lan,
            ..ConvertOptions::default()
        };
        let (out, _) = convert(text, lan_opts);
        assert!(
            out.contains("1. e2-e4 e7-e5 2. Qd1-h5 Nb8-c6 3. Bf1-c4 Ng8-f6 4. Qh5xf7# 1-0"),
            "{out}"
        );
        let uci_opts = ConvertOptions {
            notation: Notation::Uci,
            ..ConvertOptions::default()
        };
        let (out, _) = convert(text, uci_opts);
        assert!(
            out.contains("1. e2e4 e7e5 2. d1h5 b8c6 3. f1c4 g8f6 4. h5f7 1-0"),
            "{out}"
        );
        let fig = ConvertOptions {
            to: Language::Figurine,
            ..ConvertOptions::default()
        };
        let (out, _) = convert(text, fig);
        assert!(out.contains("2. ♕h5 ♘c6 3. ♗c4 ♘f6 4. ♕xf7#"), "{out}");

        let jsonl = ConvertOptions {
            format: OutputFormat::Jsonl,
            to: Language::De,
            ..ConvertOptions::default()
        };
        let (out, _) = convert(text, jsonl);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["tags"]["White"], "W");
        assert_eq!(v["san"], "e4 e5 Dh5 Sc6 Lc4 Sf6 Dxf7#");
        assert_eq!(v["uci"], "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7");
        assert_eq!(v["termination"], "checkmate");
        assert_eq!(v["result"], "1-0");
        assert_eq!(v["lang"], "en");
        assert_eq!(v["plies"], 7);

        let epd = ConvertOptions {
            format: OutputFormat::Epd,
            ..ConvertOptions::default()
        };
        let (out, _) = convert(text, epd);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 8);
        assert_eq!(
            lines[0],
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"game 1 ply 0\";"
        );
        assert!(
            lines[7].ends_with(" b KQkq - id \"game 1 ply 7\";"),
            "{}",
            lines[7]
        );
    }

    #[test]
    fn chess960_castling_is_king_takes_rook_in_uci() {
        let text = "[Variant \"Chess960\"]\n[FEN \"rk5r/p7/8/8/8/8/P7/RK5R w HAha - 0 1\"]\n\n1. O-O O-O-O *\n";
        let uci_opts = ConvertOptions {
            notation: Notation::Uci,
            ..ConvertOptions::default()
        };
        let (out, res) = convert(text, uci_opts);
        assert_eq!(res.converted, 1, "{:?}", res.notes);
        assert!(out.contains("1. b1h1 b8a8 *"), "{out}");
        let (out, _) = convert(text, ConvertOptions::default());
        assert!(out.contains("1. O-O O-O-O *"), "{out}");
    }

    #[test]
    fn guessed_languages_and_result_mismatches_are_warned_about() {
        let (_, res) = convert("[Result \"1-0\"]\n\n1. e4 e5 *", ConvertOptions::default());
        assert_eq!(res.converted, 1);
        assert_eq!(res.notes.len(), 1);
        assert_eq!(res.notes[0].level, NoteLevel::Warning);
        assert!(
            res.notes[0].problems[0]
                .message(Locale::En)
                .contains("written as 1-0")
        );
    }

    #[test]
    fn every_position_of_a_game_without_moves() {
        let epd = ConvertOptions {
            format: OutputFormat::Epd,
            ..ConvertOptions::default()
        };
        let (out, res) = convert("[Event \"x\"]\n\n*\n", epd);
        assert_eq!(res.converted, 1);
        assert_eq!(out.lines().count(), 1);
        assert!(parse_all(b"*").len() == 1);
    }
}
