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
        /// Run only this family's protocol (spheres, superellipsoids, polyhedra, potential, broad).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(demcontact_cli::validate::families()))]
        only: Option<String>,
    },
    /// Print ns/query medians per family, beside the peers, measured in one run.
    Bench {
        /// Fewer samples, for a quick look (the figures are noisier).
        #[arg(long)]
        quick: bool,
        /// Run only this family's benchmarks (spheres, superellipsoids, polyhedra, potential, broad).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(demcontact_cli::bench::FAMILIES))]
        only: Option<String>,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Validate {
            pairs,
            seed,
            figures,
            only,
        } => {
            let options = demcontact_cli::validate::Options {
                pairs,
                seed,
                progress: std::io::stderr().is_terminal(),
                figures: Some(figures),
            };
            if demcontact_cli::validate::run_selected(&options, only.as_deref()) {
                ExitCode::SUCCESS
            } else {
                eprintln!("validation FAILED");
                ExitCode::FAILURE
            }
        }
        Command::Bench { quick, only } => {
            demcontact_cli::bench::run_selected(
                &demcontact_cli::bench::Options { quick },
                only.as_deref(),
            );
            ExitCode::SUCCESS
        }
    }
}
