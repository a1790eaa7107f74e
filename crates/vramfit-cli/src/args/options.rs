//! The option table clap reads for `estimate`: every flag of the line
//! encoding, and the options given, in the order given.

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command as ClapCommand, FromArgMatches};
use vramfit_cli::line::Opt;
use vramfit_core::scenario::{EngineField, Field};

/// Every option of `estimate` that was given, in the order given: the
/// scenario's fields by [`Field::flag`], the others by [`Opt::flag`].
#[derive(Debug, Default)]
pub(super) struct Options(pub(super) Vec<(usize, &'static str, Option<String>)>);

/// The flags of `estimate`'s options, each with whether it takes a value.
fn option_flags() -> impl Iterator<Item = (&'static str, bool)> {
    let fields = Field::ALL.into_iter().map(|f| (f.flag(), true));
    let engine = EngineField::ALL.into_iter().map(|f| (f.flag(), true));
    fields
        .chain(engine)
        .chain(Opt::ALL.into_iter().map(|o| (o.flag(), o.takes_value())))
}

impl Args for Options {
    fn augment_args(cmd: ClapCommand) -> ClapCommand {
        cmd.args(option_flags().map(|(flag, takes_value)| {
            let arg = Arg::new(flag).long(&flag[2..]).value_name("VALUE");
            match (takes_value, Opt::repeats(flag)) {
                // `-ot` may be given several times, each value in order.
                (true, true) => arg.allow_hyphen_values(true).action(ArgAction::Append),
                // A value may start with `-` (`--batch -4` is a bad batch,
                // not an unknown option).
                (true, false) => arg.allow_hyphen_values(true),
                (false, _) => arg.action(ArgAction::SetTrue),
            }
        }))
    }

    fn augment_args_for_update(cmd: ClapCommand) -> ClapCommand {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for Options {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given: Vec<(usize, &'static str, Option<String>)> = option_flags()
            .filter(|(flag, _)| matches.value_source(flag) == Some(ValueSource::CommandLine))
            .filter(|(flag, _)| !Opt::repeats(flag))
            .filter_map(|(flag, takes_value)| {
                let value = takes_value
                    .then(|| matches.get_one::<String>(flag).cloned())
                    .flatten();
                Some((matches.index_of(flag)?, flag, value))
            })
            .collect();
        for flag in Opt::ALL
            .map(Opt::flag)
            .into_iter()
            .filter(|f| Opt::repeats(f))
        {
            let values = matches.get_many::<String>(flag).into_iter().flatten();
            let indices = matches.indices_of(flag).into_iter().flatten();
            given.extend(indices.zip(values).map(|(i, v)| (i, flag, Some(v.clone()))));
        }
        given.sort_by_key(|g| g.0);
        Ok(Options(given))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
