//! Every target's committed corpus replays without a finding, and every target has one.

use hwfit_fuzz::{driver, TARGETS};

#[test]
fn every_target_has_a_corpus_that_replays_cleanly() {
    for target in TARGETS {
        let dir = hwfit_fuzz::corpus_root().join(target.name);
        let corpus = driver::load_corpus(&dir).unwrap();
        assert!(!corpus.is_empty(), "{} has no corpus in {}", target.name, dir.display());
        for (i, input) in corpus.iter().enumerate() {
            if let Err(message) = driver::execute(target, input) {
                panic!("{} corpus input {i} ({} bytes): {message}", target.name, input.len());
            }
        }
    }
}

/// The HTTP target reaches the handlers: a valid corpus request is answered 200, a broken one 4xx
/// with the JSON error shape (the target's own assertions check the shape).
#[test]
fn the_http_target_sends_what_it_is_given() {
    use hwfit_fuzz::targets::http_status;
    let status = |input: &[u8]| http_status(input).map(|s| s.as_u16());
    assert_eq!(status(b"/hardware/select\n{\"model_name\": \"gpt2\"}"), Some(200));
    assert_eq!(status(b"/hardware/select\n{\"model_name\": 5}"), Some(422));
    assert_eq!(status(b"/hardware/select\n{\"model_name\""), Some(400));
    assert_eq!(status(b"/devices\nhardware=mps"), Some(200));
    assert_eq!(status(b"/no/such/route\n"), Some(404));
    assert_eq!(status(b"/devices\n\x01 \x02"), None, "not a URI a client can send");
    assert!(status(b"\xff\xfe\n\x00").is_some(), "any other head picks a route");
}
