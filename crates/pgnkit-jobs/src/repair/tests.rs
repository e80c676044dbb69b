use super::*;

fn run(text: &str, opts: &RepairOptions) -> RepairBatch {
    repair_batch(&mut GameReader::new(text.as_bytes()), "t.pgn", opts)
}

const GAME: &str = "[Event \"e\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n\n";

#[test]
fn a_clean_game_comes_out_byte_for_byte() {
    let out = run(GAME, &RepairOptions::default());
    assert_eq!(out.text, GAME.as_bytes());
    assert_eq!((out.games, out.repaired, out.unrepaired), (1, 0, 0));
    assert!(out.report.is_empty());
}

#[test]
fn a_slip_is_repaired_reported_and_explained() {
    let text = GAME.replace("3. Bb5", "3. Bb4");
    let out = run(&text, &RepairOptions::default());
    assert_eq!((out.repaired, out.unrepaired), (1, 0));
    assert_eq!(
        String::from_utf8(out.text).unwrap(),
        GAME.replace("3. Bb5", "3. Bb5 {was: Bb4}")
    );
    let record: serde_json::Value = serde_json::from_slice(&out.report).unwrap();
    assert_eq!(record["kind"], "substitution");
    assert_eq!(record["written"], "Bb4");
    assert_eq!(record["correction"], "Bb5");
    assert_eq!(record["certain"], true);
    assert_eq!(
        (record["line"].as_u64(), record["column"].as_u64()),
        (Some(6), Some(24))
    );
    assert_eq!(
        out.notes[0].message,
        "probably 3. Bb5 for Bb4 — the only correction after which the 11 later moves replay"
    );
}

#[test]
fn french_notes_and_comments() {
    let text = GAME.replace("3. Bb5", "3. Bb4");
    let opts = RepairOptions {
        messages: Locale::Fr,
        ..RepairOptions::default()
    };
    let out = run(&text, &opts);
    assert!(
        String::from_utf8(out.text)
            .unwrap()
            .contains("3. Bb5 {écrit : Bb4}")
    );
    assert_eq!(
        out.notes[0].message,
        "sans doute 3. Bb5 au lieu de Bb4 — la seule correction après laquelle les 11 coups suivants se rejouent"
    );
}

#[test]
fn a_game_with_two_equal_corrections_is_left_as_it_was() {
    // 2. Nd2?? with knights able to reach... none: an unrelated token two corrections fit equally.
    let text = "[Result \"*\"]\n\n1. e4 e5 2. Kg1 *\n\n";
    let out = run(text, &RepairOptions::default());
    assert_eq!(out.text, text.as_bytes());
    assert_eq!((out.repaired, out.unrepaired), (0, 1));
    let record: serde_json::Value = serde_json::from_slice(&out.report).unwrap();
    assert_eq!(record["certain"], false);
}
