//! `demcontact`: the validation and benchmark driver.
//!
//! `demcontact validate` runs every shape family's validation protocol and exits non-zero if any check
//! fails; `demcontact bench` prints ns/query medians beside the peers measured in the same run.

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Parser)]
#[command(version, about = "demcontact: validation protocols and benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every shape family's validation protocol and print the tables.
    Validate {
        /// Pairs per series of each protocol.
        #[arg(long, default_value_t = 1_000_000)]
        pairs: usize,
        /// Seed of the random scenes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write the figures (SVG).
        #[arg(long, default_value = "target/validation")]
        figures: std::path::PathBuf,
    },
    /// Print ns/query medians per family, beside the peers, measured in one run.
    Bench {
        /// Fewer samples, for a quick look (the figures are noisier).
        #[arg(long)]
        quick: bool,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Validate {
            pairs,
            seed,
            figures,
        } => {
            let options = demcontact_cli::validate::Options {
                pairs,
                seed,
                progress: std::io::stderr().is_terminal(),
                figures: Some(figures),
            };
            if demcontact_cli::validate::run(&options) {
                ExitCode::SUCCESS
            } else {
                eprintln!("validation FAILED");
                ExitCode::FAILURE
            }
        }
        Command::Bench { quick } => {
            demcontact_cli::bench::run(&demcontact_cli::bench::Options { quick });
            ExitCode::SUCCESS
        }
    }
}
