//! `mmtree states -n N -k K`: the graph of game states (candidate sets) under every guess,
//! as DOT or JSON, for games small enough to draw.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use mmtree_core::{state_graph, StateOptions, StatesError, MAX_STATE_CODES};
use mmtree_io::state_graph_dot;

use crate::cli::{StatesArgs, StatesFormatArg};
use crate::config::GameConfig;
use crate::UsageError;

#[derive(Serialize)]
struct JsonState {
    id: usize,
    depth: u32,
    size: usize,
    codes: Vec<String>,
}

#[derive(Serialize)]
struct JsonEdge {
    from: usize,
    to: usize,
    guess: String,
    feedback: String,
    #[serde(rename = "loop")]
    self_loop: bool,
}

#[derive(Serialize)]
struct JsonGraph {
    game: String,
    merge_equal: bool,
    include_empty: bool,
    states: Vec<JsonState>,
    edges: Vec<JsonEdge>,
}

pub fn run(args: &StatesArgs, out: &mut dyn Write) -> Result<()> {
    let config = GameConfig::resolve(&args.game)?;
    let output = super::files::check_output(args.output.as_deref(), "-o")?;
    // Refuse by the number of codes before enumerating a large space.
    let codes = config.game.code_count();
    if codes > MAX_STATE_CODES as u128 {
        let err = StatesError::TooManyCodes {
            game: config.game.to_string(),
            codes: usize::try_from(codes).unwrap_or(usize::MAX),
            max: MAX_STATE_CODES,
        };
        return Err(UsageError(err.to_string()).into());
    }
    let space = config.space()?;
    let options =
        StateOptions { include_empty: args.include_empty, merge_equal: args.merge_equal, max_depth: args.max_depth };
    let graph = state_graph(&space, options).map_err(|e| match e {
        StatesError::TooLarge { .. } if args.merge_equal => UsageError(format!("{e}; try --max-depth D")),
        StatesError::TooLarge { .. } => UsageError(format!("{e}; try --max-depth D, or --merge-equal")),
        e => UsageError(e.to_string()),
    })?;
    let name = |c| config.alphabet.format(&space.code(c));
    let text = match args.format {
        StatesFormatArg::Dot => {
            state_graph_dot(&graph, &space, &config.alphabet, args.rankdir.map(super::dot::rankdir))
        }
        StatesFormatArg::Json => {
            let json = JsonGraph {
                game: config.game.to_string(),
                merge_equal: args.merge_equal,
                include_empty: args.include_empty,
                states: graph
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(id, s)| JsonState {
                        id,
                        depth: s.depth,
                        size: s.codes.len(),
                        codes: s.codes.iter().map(|&c| name(c)).collect(),
                    })
                    .collect(),
                edges: graph
                    .edges
                    .iter()
                    .map(|e| JsonEdge {
                        from: e.from,
                        to: e.to,
                        guess: name(e.guess),
                        feedback: space.scheme().format(e.feedback),
                        self_loop: e.from == e.to,
                    })
                    .collect(),
            };
            serde_json::to_string_pretty(&json)? + "\n"
        }
    };
    match &output {
        Some(output) => output.write(text.as_bytes(), out)?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}
