//! The `kawari` binary: the USI/UCI engine on stdin/stdout, or one of the
//! command-line tools, a module each (`perft`, `datagen`, `train` and `features`,
//! `bench`, `mate`, `web`), their options read by `flags`.

mod bench;
mod cpu;
mod flags;
mod learn;
mod mate;
mod perft;
mod web;

use kawari::variant::Variant;
use std::process::ExitCode;

/// `kawari --help`: {variants} and {default} are filled in by `print_help`.
const HELP: &str = "\
kawari - a USI and UCI engine for shogi variants

USAGE:
    kawari                      start the engine on stdin/stdout; the first
                                `usi` or `uci` command chooses the protocol
    kawari perft [OPTIONS]      count legal move sequences
    kawari bench [hash] [threads] [depth]
                                fixed-depth search benchmark over every variant
                                (defaults 16 MB, 1 thread, depth 9; with one
                                thread the node count is the engine's signature)
    kawari datagen [OPTIONS]    self-play training data (positions, scores,
                                results; format in src/learn/record.rs)
    kawari train [OPTIONS]      fit a network (NNUE) to datagen files
    kawari features [OPTIONS]   the trainer's inputs for another trainer
                                (kawari-train-torch; format in
                                src/learn/export.rs)
    kawari mate [OPTIONS]       solve a tsume (as `go mate`), or say whether a
                                mate within N plies exists
    kawari web [OPTIONS]        play, analyse and solve tsume in a browser:
                                serves a page on http://127.0.0.1:8470/
    kawari --help               this text

PERFT OPTIONS:
    --variant <name>    {variants} (default {default})
    --sfen <sfen>       start from this position (default: the variant's start)
    --depth <n>         depth in plies (required)
    --divide            print the count below each root move
    --width <64|128>    force a bitboard width (default: the narrowest that fits)

DATAGEN OPTIONS:
    --variant <name>    the variant (default {default})
    --games <n>         games the file should hold when done (required; a file
                        that has games already is resumed after them)
    --out <file>        output file, appended to (required)
    --nodes <n>         nodes per move (default 5000)
    --check-nodes <n>   nodes per move in check, where nothing is recorded
                        (default: --nodes)
    --adjudicate-mates <true|false>
                        end a game at its first mate score (default true)
    --random-plies <n>  random plies before the searches play (default 8)
    --max-plies <n>     a longer game is a draw (default 400)
    --seed <n>          game i is played from seed + i (default 1)
    --book <file>       start positions, one SFEN a line ('#' comments), e.g.
                        openings/<variant>.txt: game i starts from line
                        (seed + i) mod lines, then plays its random plies
    --threads <n>       playing threads (default: the CPUs there are)
    --hash <MB>         hash table per thread (default 16)
    --eval-file <file>  play with this network (default: the built-in one)
    --hand-made true    play with the hand-made evaluation

TRAIN OPTIONS:
    --variant <name>    the variant (default {default})
    --data <file>       a datagen file (required; repeat for more)
    --out <file>        the network file to write (required)
    --hidden <n>        hidden units per perspective, a multiple of 16 (default 128)
    --epochs <n>        passes over the data (default 4)
    --batch <n>         positions per step (default 1024)
    --lr <x>            Adam's learning rate (default 0.001)
    --lambda <x>        weight of the search score against the game result
                        in the target, 0..1 (default 0.75)
    --holdout <n>       games whose index is a multiple of n are held out
                        for the reported loss (default 20)
    --max-positions <n> read at most this many positions (default: all)
    --mirror <bool>     also train on each position with its files mirrored,
                        where the variant's moves are symmetric (default true)
    --features <set>    the inputs: psq (pieces on squares, hand counts) or
                        king-buckets (the same per bucket of the own king's
                        square, mirrored to the left half; a shared
                        piece-square factor is learned beside the buckets and
                        folded in) (default psq)
    --bucket-decay <x>  king buckets: weight decay of the buckets' rows (not
                        the shared factors'), 0..500 (default 50)
    --symmetric-factor <bool>
                        king buckets: also learn a factor shared by
                        mirror-image squares (default true)
    --patience <n>      stop after n epochs without a lower held-out loss and
                        keep the best epoch's network; 0 never stops (default 2)
    --output-k <x>      the network's K: its output rescaled so that
                        sigmoid(cp / K) is the expected result, whatever the
                        data's scale (default: the data's own fitted K)
    --seed <n>          initial weights and shuffles (default 1)
    --threads <n>       gradient threads (default: the CPUs there are)

FEATURES OPTIONS:
    --variant <name>    the variant (default {default})
    --features <set>    psq or king-buckets (default psq)
    --data <file>       a datagen file (repeat for more); read as `train`
                        reads it: --holdout, --max-positions and --mirror
                        as there (held-out games in a section of their own,
                        mirror images beside the training positions)
    --sfens <file>      instead of --data: the positions of a text file, one
                        SFEN a line, with scores and results 0
    --out <file>        the file to write (required)

MATE OPTIONS:
    --variant <name>    the variant (default {default})
    --sfen <sfen>       the problem, the attacker to move (required)
    --moves <moves>     USI moves played from it first, space-separated
    --within <n>        only whether a mate within n plies exists, every ply
                        counted (interpositions too): `--within 39` on a
                        41-ply mate checks that no shorter mate exists;
                        the line shown is one mate within the bound, its
                        defences not all checked to be the longest
    --hash <MB>         the solver's table (default 1024)
    --time <s>          give up after this many seconds (default: none)

WEB OPTIONS:
    --port <n>          the port (default 8470; 0 picks a free one)
    --host <addr>       the address to listen on (default 127.0.0.1; another
                        address makes the page reachable from elsewhere)
    --open              start the system's browser on the page

Logs go to stderr when RUST_LOG is set (e.g. RUST_LOG=debug).
";

/// The command-line tools, by their first argument.
type Tool = fn(&[String]) -> Result<(), String>;
const TOOLS: &[(&str, Tool)] = &[
    ("perft", perft::run),
    ("datagen", learn::run_datagen),
    ("train", learn::run_train),
    ("features", learn::run_features),
    ("bench", bench::run),
    ("mate", mate::run),
    ("web", web::run),
];

/// The engine with no argument, else the tool the first argument names.
fn main() -> ExitCode {
    // First, before any code that may use the instructions in question (on
    // Linux x86-64 the load-time constructor has checked already).
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
    if let Err(line) = cpu::check() {
        eprintln!("{line}");
        return ExitCode::from(1);
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            kawari::protocol::run_stdio();
            ExitCode::SUCCESS
        }
        Some("-h") | Some("--help") | Some("help") => print_help(),
        // `kawari datagen --help` and the like: the one help text.
        Some(cmd)
            if TOOLS.iter().any(|(name, _)| *name == cmd)
                && args[1..].iter().any(|a| a == "--help" || a == "-h") =>
        {
            print_help()
        }
        Some(cmd) => match TOOLS.iter().find(|(name, _)| *name == cmd) {
            Some((_, tool)) => match tool(&args[1..]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("kawari {cmd}: {e}");
                    ExitCode::from(2)
                }
            },
            None => {
                eprintln!("kawari: unknown command '{cmd}' (try --help)");
                ExitCode::from(2)
            }
        },
    }
}

/// Prints the help text (tools, options, variants) on stdout.
fn print_help() -> ExitCode {
    let names: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
    print!(
        "{}",
        HELP.replace("{variants}", &names.join(", "))
            .replace("{default}", Variant::default_variant().name())
    );
    ExitCode::SUCCESS
}
