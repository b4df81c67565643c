//! A test guest of bindings generated for testdata/rustwide/wit
//! (TestRustWideWorld): the test generates src/smith_plugin.rs next to it.

mod smith_plugin;

use smith_plugin::guest::Guest;
use smith_plugin::host::{self, Level, Mixed, Scalars};

struct Wide;

impl Guest for Wide {
    fn run_wide(a: Scalars, b: Scalars) -> Vec<Scalars> {
        let r = host::echo_wide(&b, &a);
        vec![r, a]
    }

    fn run_mixed(m: Vec<Mixed>) -> Vec<Mixed> {
        m.iter().map(host::echo_mixed).collect()
    }

    fn run_one(m: Mixed) -> Mixed {
        host::echo_mixed(&m)
    }

    fn run_f32(x: f32, c: char, s: i8) -> f32 {
        host::note_value(host::echo_char(c) as u32);
        host::note_value(host::echo_s8(s) as i32 as u32);
        host::echo_f64(x as f64) as f32
    }

    fn run_level(l: Level) -> Level {
        host::echo_level(l)
    }

    fn run_bool(b: bool) -> bool {
        !b
    }
}

crate::export_guest!(Wide);
