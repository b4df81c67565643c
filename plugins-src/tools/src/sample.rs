//! The sample argument object the reader's tests and fuzz driver decode:
//! one field of each kind the tools use.

use crate::args::{bool_field, decode, int_field, str_field, Field, Reader, Slot};

/// Sample holds a decoded sample object.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Sample {
    pub path: String,
    pub n: i64,
    pub b: bool,
    pub items: Vec<String>,
}

/// decode_sample decodes {"path": string, "n": integer, "b": boolean,
/// "items": [string]} as the tools decode their arguments.
pub(crate) fn decode_sample(args: &[u8]) -> Result<Sample, String> {
    let mut s = Sample::default();
    let mut items = Vec::new();
    let mut each = |r: &mut Reader| -> Result<(), String> {
        let mut v = String::new();
        let res = r.into(&mut str_field("items[]", &mut v));
        items.push(v);
        res
    };
    let res = decode(
        "t",
        args,
        &mut [
            str_field("path", &mut s.path),
            int_field("n", &mut s.n),
            bool_field("b", &mut s.b),
            Field { name: "items", slot: Slot::List(&mut each), seen: None },
        ],
    );
    s.items = items;
    res.map(|_| s)
}
