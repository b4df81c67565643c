//! The rustdriver tests' driver (its frame loop is ../serve.rs). Op 'e' answers the op byte and the
//! payload, 'p' panics with the payload as its message, 'x' exits
//! without answering; anything else answers the payload reversed. Built
//! with --cfg broken it does not compile; run with --test, its tests
//! pass, fail under --cfg fail, and vanish under --cfg none.

#[path = "../serve.rs"]
mod serve;

#[cfg(broken)]
fn broken() -> u8 {
    "not a u8"
}

fn answer(op: u8, payload: Vec<u8>) -> Vec<u8> {
    match op {
        b'e' => {
            let mut out = vec![op];
            out.extend_from_slice(&payload);
            out
        }
        b'p' => panic!("echo: asked to panic: {}", String::from_utf8_lossy(&payload)),
        b'x' => std::process::exit(3),
        _ => payload.into_iter().rev().collect(),
    }
}

fn main() {
    serve::serve(answer)
}

#[cfg(all(test, not(none)))]
mod tests {
    use super::answer;

    #[test]
    fn echo_prefixes_the_op() {
        assert_eq!(answer(b'e', b"hi".to_vec()), b"ehi");
    }

    #[test]
    fn other_ops_reverse() {
        assert_eq!(answer(b'r', b"abc".to_vec()), b"cba");
    }

    #[cfg(fail)]
    #[test]
    fn fails_on_request() {
        assert_eq!(answer(b'r', b"ab".to_vec()), b"ab", "deliberately failing");
    }
}
