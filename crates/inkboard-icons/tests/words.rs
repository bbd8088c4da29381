//! Data-driven: each line of `tests/words.txt` is a word a client may send as an
//! icon; `tests/words.expected.txt` holds what the set answers for each, one line
//! per word: the name it reads as and the icon it draws, or the refusal with its
//! suggestions. `UPDATE_EXPECT=1` writes the answers as the expected file.

use std::path::Path;

use inkboard_icons::Icon;

#[test]
fn words_read_as_the_expected_file_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let words = std::fs::read_to_string(dir.join("words.txt")).expect("tests/words.txt");
    let mut got = String::new();
    for word in words.lines() {
        let answer = match Icon::parse(word) {
            Ok(icon) if icon.draws() == icon.name() => format!("ok {icon}"),
            Ok(icon) => format!("ok {icon} (draws {})", icon.draws()),
            Err(e) => format!("refused: {e}"),
        };
        got.push_str(&format!("{word:?} -> {answer}\n"));
    }
    let expected_path = dir.join("words.expected.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &got).expect("write the expected file");
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    assert_eq!(
        got, expected,
        "answers differ from tests/words.expected.txt (UPDATE_EXPECT=1 refreshes it)"
    );
}
