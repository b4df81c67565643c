//! items keeps the decoder's output item states by item id: the item used
//! last apart, the rest in a BTreeMap (a HashMap would ask the host for a
//! random seed, the WASI import random_get). A delta's item is nearly
//! always the last one's, and comparing an id (some 50 bytes) with the
//! last one eight bytes at a time costs less in wasm than a map lookup,
//! whose string comparison calls memcmp, a byte loop there.

use super::ItemState;
use std::collections::BTreeMap;

/// Items maps item ids to their states. The last item's id is never a
/// key of rest.
#[derive(Default)]
pub(super) struct Items {
    last: Option<(String, ItemState)>,
    rest: BTreeMap<String, ItemState>,
}

impl Items {
    /// get returns the state of item id, None when it has none; the item
    /// becomes the last.
    pub(super) fn get(&mut self, id: &str) -> Option<&mut ItemState> {
        if !matches!(&self.last, Some((k, _)) if smith_json::read::same_bytes(k.as_bytes(), id.as_bytes())) {
            let (k, st) = self.rest.remove_entry(id)?;
            self.stash();
            self.last = Some((k, st));
        }
        self.last.as_mut().map(|(_, st)| st)
    }

    /// state returns the state of item id, made with type typ if new; the
    /// item becomes the last.
    pub(super) fn state(&mut self, id: &str, typ: &str) -> &mut ItemState {
        if self.get(id).is_none() {
            self.stash();
            let st = ItemState {
                typ: typ.to_string(),
                index: None,
                summary: 0,
                got_args: false,
                phase: String::new(),
                item_id_out: false,
            };
            self.last = Some((id.to_string(), st));
        }
        // Present: get made it the last, or it was made above.
        &mut self.last.as_mut().expect("openairesp: item state").1
    }

    /// remove forgets item id.
    pub(super) fn remove(&mut self, id: &str) {
        if matches!(&self.last, Some((k, _)) if smith_json::read::same_bytes(k.as_bytes(), id.as_bytes())) {
            self.last = None;
        } else {
            self.rest.remove(id);
        }
    }

    /// stash moves the last item into rest.
    fn stash(&mut self) {
        if let Some((k, st)) = self.last.take() {
            self.rest.insert(k, st);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Items;
    use std::collections::BTreeMap;

    /// Items answers as a plain map of the same operations does: a state
    /// is made once, found again under its id alone, and gone once removed,
    /// whichever item was used last.
    #[test]
    fn items_answer_as_a_map() {
        struct Case {
            name: &'static str,
            ops: &'static [(&'static str, &'static str)], // (op, id): s state, g get, r remove
        }
        let cases = [
            Case { name: "one item", ops: &[("g", "a"), ("s", "a"), ("g", "a"), ("s", "a"), ("r", "a"), ("g", "a")] },
            Case {
                name: "two interleaved",
                ops: &[
                    ("s", "rs_1"),
                    ("s", "fc_1"),
                    ("g", "rs_1"),
                    ("g", "fc_1"),
                    ("r", "rs_1"),
                    ("g", "rs_1"),
                    ("g", "fc_1"),
                ],
            },
            Case {
                name: "remove one not last",
                ops: &[("s", "a"), ("s", "b"), ("r", "a"), ("g", "b"), ("g", "a"), ("s", "a"), ("r", "b"), ("g", "b")],
            },
            Case {
                name: "remove unknown",
                ops: &[("s", "a"), ("r", "x"), ("g", "a"), ("r", ""), ("s", ""), ("g", "")],
            },
            Case {
                name: "prefix ids",
                ops: &[
                    ("s", "item_0123456789abcdef"),
                    ("g", "item_0123456789abcde"),
                    ("s", "item_0123456789abcdeg"),
                    ("g", "item_0123456789abcdef"),
                    ("g", "item_0123456789abcdeg"),
                ],
            },
        ];
        for c in &cases {
            let mut items = Items::default();
            let mut model: BTreeMap<String, usize> = BTreeMap::new();
            for (n, &(op, id)) in c.ops.iter().enumerate() {
                match op {
                    "s" => {
                        // A new state (summary 0) is marked with the step
                        // that made it; a known one keeps its mark.
                        let st = items.state(id, "t");
                        let made = *model.entry(id.to_string()).or_insert(n);
                        if made == n {
                            assert_eq!(st.summary, 0, "{}: step {} made {:?} anew", c.name, n, id);
                            st.summary = n as i64 + 1;
                        }
                        assert_eq!(st.summary, made as i64 + 1, "{}: step {} state {:?}", c.name, n, id);
                    }
                    "g" => {
                        let got = items.get(id).map(|st| st.summary);
                        assert_eq!(got, model.get(id).map(|&m| m as i64 + 1), "{}: step {} get {:?}", c.name, n, id);
                    }
                    _ => {
                        items.remove(id);
                        model.remove(id);
                    }
                }
            }
        }
    }
}
