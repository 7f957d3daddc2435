//! Stage two: raw flags resolved into validated game, rule and output objects.

use anyhow::Result;

use mmtree_core::{Alphabet, CodeSpace, FeedbackKind, Game, GameSpec, MemoryLimit, Variant};
use mmtree_io::{Format, RuleInfo};
use mmtree_strategy::{GuessRule, Method, Pool, Ties, Valuation};

use crate::cli::{FormatArg, GameArgs, PlannableGameArgs, PoolArg, RuleArgs, TiesArg, ValuationArg};

/// A validated game with its alphabet and memory limit.
pub struct GameConfig {
    pub game: Game,
    pub alphabet: Alphabet,
    pub limit: MemoryLimit,
}

impl GameConfig {
    pub fn resolve(args: &GameArgs) -> Result<GameConfig> {
        let spec = GameSpec {
            n: args.n,
            k: args.k,
            variant: if args.distinct { Variant::Distinct } else { Variant::Repetition },
            feedback: if args.black_only { FeedbackKind::Black } else { FeedbackKind::BlackWhite },
        };
        let game = Game::new(spec)?;
        let alphabet = match &args.symbols {
            Some(s) => Alphabet::new(s)?,
            None => Alphabet::default(),
        };
        if alphabet.len() < game.k() as usize {
            return Err(crate::UsageError(format!(
                "--symbols '{}' has {} symbols, the game needs k = {}",
                alphabet.first(35),
                alphabet.len(),
                game.k()
            ))
            .into());
        }
        let limit = match &args.memory_limit {
            Some(text) => MemoryLimit::parse(text).map_err(crate::UsageError)?,
            None => MemoryLimit::machine_default(),
        };
        Ok(GameConfig { game, alphabet, limit })
    }

    /// The code space, without a feedback table: the scanner's kernels score small sets
    /// faster than a table can be built, and large tables miss the cache (measured in
    /// instructions, a whole `solve`: [4,6] entropy 105 M with the 1.7 MB table, 44 M without;
    /// [4,8] 938 M and 319 M; the look-ahead and `first-guesses` alike or better without).
    pub fn space(&self) -> Result<CodeSpace> {
        Ok(CodeSpace::new(self.game, self.limit)?)
    }
}

pub fn valuation(arg: ValuationArg) -> Valuation {
    match arg {
        ValuationArg::Minimax => Valuation::Minimax,
        ValuationArg::ExpectedSize => Valuation::ExpectedSize,
        ValuationArg::Entropy => Valuation::Entropy,
        ValuationArg::MostParts => Valuation::MostParts,
        // The simple strategies ignore the valuation; minimax is a placeholder.
        ValuationArg::FirstCandidate | ValuationArg::Human => Valuation::Minimax,
    }
}

/// The method of `--valuation` and `--lookahead`, refusing combinations that are not supported.
pub fn method(args: &RuleArgs) -> Result<Method> {
    let simple = match args.valuation {
        ValuationArg::FirstCandidate => Some(Method::FirstCandidate),
        ValuationArg::Human => Some(Method::Human),
        _ => None,
    };
    match (args.lookahead, simple) {
        (1, Some(method)) => {
            if method == Method::Human
                && (args.pool != PoolArg::All || args.ties != TiesArg::Smallest || args.no_prefer_candidates)
            {
                return Err(crate::UsageError(
                    "--valuation human has its own tie rules: --pool, --ties and --no-prefer-candidates do not apply"
                        .to_string(),
                )
                .into());
            }
            // First-candidate plays a candidate, so `--pool candidates` holds by construction (the
            // tree equals the `--pool all` one; the file records the pool asked for). It never
            // weighs equally good guesses, so a preference among them cannot apply.
            if method == Method::FirstCandidate && args.no_prefer_candidates {
                return Err(crate::UsageError(
                    "--valuation first-candidate never weighs equally good guesses: --no-prefer-candidates does \
                     not apply (--ties picks the smallest or largest candidate)"
                        .to_string(),
                )
                .into());
            }
            Ok(method)
        }
        (1, None) => Ok(Method::OneStep),
        (2, None) => Ok(Method::Lookahead2),
        (2, Some(method)) => Err(crate::UsageError(format!(
            "--lookahead 2 needs a valuation (minimax, expected-size, entropy, most-parts), not {}",
            method.strategy_name().unwrap_or("this strategy")
        ))
        .into()),
        (n, _) => Err(crate::UsageError(format!("--lookahead {n}: only 1 and 2 are supported")).into()),
    }
}

pub fn format(arg: FormatArg) -> Format {
    match arg {
        FormatArg::Md => Format::Markdown,
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
        FormatArg::Latex => Format::Latex,
    }
}

/// The rule, with the first guess parsed and checked against the game.
pub fn rule(args: &RuleArgs, config: &GameConfig, space: &CodeSpace) -> Result<GuessRule> {
    let mut rule = GuessRule::new(valuation(args.valuation));
    rule.method = method(args)?;
    rule.pool = match args.pool {
        PoolArg::All => Pool::All,
        PoolArg::Candidates => Pool::Candidates,
    };
    rule.ties = match args.ties {
        TiesArg::Smallest => Ties::Smallest,
        TiesArg::Largest => Ties::Largest,
    };
    rule.prefer_candidates = !args.no_prefer_candidates;
    if let Some(text) = &args.first {
        let code = config.alphabet.parse(&config.game, text)?;
        rule.first_guess = Some(space.index(&code).expect("a parsed code of the game has an index"));
    }
    Ok(rule)
}

impl PlannableGameArgs {
    /// The game flags, which are required unless the game comes from a plan.
    pub fn require(&self, command: &str) -> Result<GameArgs> {
        let (Some(n), Some(k)) = (self.n, self.k) else {
            return Err(
                crate::UsageError(format!("{command}: give the game with -n and -k, or a plan with --plan")).into()
            );
        };
        Ok(GameArgs {
            n,
            k,
            distinct: self.distinct,
            black_only: self.black_only,
            symbols: self.symbols.clone(),
            memory_limit: self.memory_limit.clone(),
        })
    }
}

/// The rule a tree header or a plan records, back as a rule (its first guess parsed with
/// `alphabet`); `None` for a name this build does not know.
pub fn recorded_guess_rule(info: &RuleInfo, space: &CodeSpace, alphabet: &Alphabet) -> Option<GuessRule> {
    let methods = [Method::OneStep, Method::Lookahead2, Method::FirstCandidate, Method::Human];
    let valuations = [Valuation::Minimax, Valuation::ExpectedSize, Valuation::Entropy, Valuation::MostParts];
    let mut rule = methods
        .iter()
        .flat_map(|&method| valuations.iter().map(move |&v| GuessRule { method, ..GuessRule::new(v) }))
        .find(|rule| rule.name() == info.valuation)?;
    rule.pool = [Pool::All, Pool::Candidates].into_iter().find(|p| p.name() == info.pool)?;
    rule.ties = [Ties::Smallest, Ties::Largest].into_iter().find(|t| t.name() == info.ties)?;
    rule.prefer_candidates = info.prefer_candidates;
    if let Some(text) = &info.first_guess {
        rule.first_guess = space.index(&alphabet.parse(space.game(), text).ok()?);
    }
    Some(rule)
}
