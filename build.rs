//! Generates the sliding-piece attack tables (fancy magic bitboards) at build time.
//!
//! Magic factors are found by a seeded random search, so the output is the same on every build; the tables
//! are written as Rust statics into `$OUT_DIR/magics.rs`, which `src/core/attacks.rs` includes. Nothing is
//! computed at start-up and the hot path is one multiply, one shift and one load.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// Squares a slider on `sq` attacks given `occupied`, by walking rays (slow; build time only).
fn slide(sq: i32, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// The squares whose occupancy matters: the rays without their last square.
fn relevant_mask(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Found {
    mask: u64,
    factor: u64,
    shift: u32,
    table: Vec<u64>,
}

fn find_magic(sq: i32, dirs: &[(i32, i32)], rng: &mut Rng) -> Found {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    // Enumerate every subset of the mask (carry-rippler) with its true attack set.
    let mut occupancies = Vec::with_capacity(size);
    let mut attacks = Vec::with_capacity(size);
    let mut subset = 0u64;
    loop {
        occupancies.push(subset);
        attacks.push(slide(sq, subset, dirs));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let mut table = vec![0u64; size];
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let factor = rng.sparse();
        if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (occ, att) in occupancies.iter().zip(&attacks) {
            let index = (occ.wrapping_mul(factor) >> shift) as usize;
            if epoch[index] != attempt {
                epoch[index] = attempt;
                table[index] = *att;
            } else if table[index] != *att {
                ok = false;
                break;
            }
        }
        if ok {
            return Found {
                mask,
                factor,
                shift,
                table,
            };
        }
    }
}

fn emit(out: &mut String, name: &str, dirs: &[(i32, i32)], rng: &mut Rng, all: &mut Vec<u64>) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for sq in 0..64 {
        let found = find_magic(sq, dirs, rng);
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, factor: {:#x}, shift: {}, offset: {} }},",
            found.mask,
            found.factor,
            found.shift,
            all.len()
        )
        .unwrap();
        all.extend_from_slice(&found.table);
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::new();
    let mut all = Vec::new();
    emit(&mut out, "ROOK_MAGICS", &ROOK_DIRS, &mut rng, &mut all);
    emit(&mut out, "BISHOP_MAGICS", &BISHOP_DIRS, &mut rng, &mut all);
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        all.len()
    )
    .unwrap();
    for chunk in all.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|a| format!("{a:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("magics.rs");
    fs::write(dest, out).unwrap();
}
