//! `mmtree advise`: the candidates left after a history of rounds, and the best next guesses
//! (the report is mmtree-sweep's `advice`; here the flags and the rendering).

use std::io::Write;

use anyhow::Result;

use mmtree_io::{render_tables, Cell, Format, Table};
use mmtree_strategy::{Pool, Valuation};
use mmtree_sweep::advice::{advise, candidates_after, parse_history, AdviceReport, Adviser};

use crate::cli::{AdviseArgs, AdviseValuationArg, PoolArg};
use crate::config::{self, GameConfig};
use crate::UsageError;

pub fn run(args: &AdviseArgs, out: &mut dyn Write) -> Result<()> {
    let game = GameConfig::resolve(&args.game)?;
    let space = game.space()?;
    let rounds = parse_history(&args.history, &game.alphabet, &space).map_err(|e| UsageError(e.0))?;
    let cands = candidates_after(&rounds, &space).map_err(|e| UsageError(e.0))?;
    let abc = &game.alphabet;
    let pool = match args.pool {
        PoolArg::All => Pool::All,
        PoolArg::Candidates => Pool::Candidates,
    };
    if pool != Pool::All && args.valuation == AdviseValuationArg::Human {
        return Err(UsageError("--valuation human has its own rules: --pool does not apply".into()).into());
    }
    let which: Vec<Adviser> = match args.valuation {
        AdviseValuationArg::All => Adviser::ALL.to_vec(),
        AdviseValuationArg::Minimax => vec![Adviser::Valuation(Valuation::Minimax)],
        AdviseValuationArg::ExpectedSize => vec![Adviser::Valuation(Valuation::ExpectedSize)],
        AdviseValuationArg::Entropy => vec![Adviser::Valuation(Valuation::Entropy)],
        AdviseValuationArg::MostParts => vec![Adviser::Valuation(Valuation::MostParts)],
        AdviseValuationArg::FirstCandidate => vec![Adviser::FirstCandidate],
        AdviseValuationArg::Human => vec![Adviser::Human],
    };
    let advice = which.into_iter().map(|a| advise(a, pool, args.top, &space, &cands, abc, args.codes)).collect();
    let report = AdviceReport::new(&space, abc, &rounds, &cands, advice);
    let format = config::format(args.format);
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let tables: Vec<Table> = report
        .advice
        .iter()
        .map(|a| {
            let mut t = Table::new(a.valuation, &["rank", "guess", "candidate", "value", "parts", "partition"]);
            for g in &a.guesses {
                t.push(vec![
                    Cell::Int(g.rank as i128),
                    g.guess.clone().into(),
                    Cell::Bool(g.candidate),
                    match g.value {
                        None => Cell::Text("-".to_string()),
                        Some(v) if v.fract() == 0.0 => Cell::Int(v as i128),
                        Some(v) => Cell::Float(v, 3),
                    },
                    Cell::Int(g.parts as i128),
                    g.partition
                        .iter()
                        .map(|p| match &p.codes {
                            Some(codes) => format!("{}:{} {{{}}}", p.feedback, p.size, codes.join(" ")),
                            None => format!("{}:{}", p.feedback, p.size),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                        .into(),
                ]);
            }
            t
        })
        .collect();
    if format == Format::Markdown {
        writeln!(out, "## {} after {} round(s): {} candidate(s) left\n", report.game, rounds.len(), cands.len())?;
        if cands.len() <= args.show {
            writeln!(out, "Candidates: {}\n", report.candidates.join(" "))?;
        }
    }
    write!(out, "{}", render_tables(&tables, format))?;
    Ok(())
}
