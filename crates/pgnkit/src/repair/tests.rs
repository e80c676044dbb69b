use super::*;
use crate::pgn::parse_all;
use crate::walk;

fn diagnose_text(text: &str, options: RepairOptions) -> (Option<Diagnosis>, Prepared) {
    let games = parse_all(text.as_bytes());
    let prepared = walk::prepare(&games[0], None).unwrap();
    (diagnose(&games[0], &prepared, &options), prepared)
}

fn repaired(text: &str, options: RepairOptions) -> String {
    let games = parse_all(text.as_bytes());
    let prepared = walk::prepare(&games[0], None).unwrap();
    let diagnosis = diagnose(&games[0], &prepared, &options).expect("a faulty game");
    let fix = diagnosis.repair().expect("a certain repair");
    String::from_utf8(repaired_text(
        &games[0],
        &prepared,
        &diagnosis,
        fix,
        crate::explain::Locale::En,
    ))
    .unwrap()
}

const RUY: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5 10. Bc2 c5 11. d4 Qc7 *";

#[test]
fn a_game_that_replays_has_no_diagnosis() {
    assert!(diagnose_text(RUY, RepairOptions::default()).0.is_none());
}

#[test]
fn a_wrong_destination_is_substituted_and_marked() {
    let text = RUY.replace("Bb5", "Bb4");
    assert_eq!(
        repaired(&text, RepairOptions::default()),
        RUY.replace("Bb5", "Bb5 {was: Bb4}")
    );
}

#[test]
fn a_move_written_twice_is_removed_and_the_numbers_follow() {
    let text = RUY.replace("7. Bb3 d6 8. c3", "7. Bb3 d6 8. d6 c3");
    let out = repaired(&text, RepairOptions::default());
    assert_eq!(
        out,
        RUY.replace("7. Bb3 d6 8. c3", "7. Bb3 d6 {removed: d6} 8. c3")
    );
}
