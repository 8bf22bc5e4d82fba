//! Sphere-pair benchmarks: the C ABI single query (cold and warm), the batch call on 1 and 2 threads,
//! and the Rust core, beside parry3d-f64's ball-ball `query::contact` on the same pairs.

use super::{median_ns, ns, Options};
use crate::sphere_pairs::{AbiPairs, Pairs};
use crate::table::Table;
use demcontact::ffi::{
    demcontact_collide, demcontact_collide_batch, demcontact_contact, demcontact_warm_state,
    DEMCONTACT_STATUS_OK,
};
use demcontact::narrow::collide;
use parry3d_f64::query;
use std::hint::black_box;

/// Runs the sphere benchmarks; returns the table.
pub fn bench(options: &Options) -> Table {
    let samples = options.samples();
    let single = Pairs::new(4096, 11);
    let abi = AbiPairs::new(&single);
    let n = abi.pairs.len();
    let mut out = demcontact_contact::default();

    let mut cold = |pairs: &AbiPairs| {
        median_ns(samples, pairs.pairs.len(), || {
            for i in 0..pairs.pairs.len() {
                black_box((pairs.collide_cold(i, &mut out), &out));
            }
        })
    };
    let abi_cold = cold(&abi);
    let classes = AbiPairs::new(&Pairs::with_palette(4096, 11, Some(16)));
    let abi_cold_shared = cold(&classes);
    let mut warm = vec![demcontact_warm_state::default(); n];
    let abi_warm = median_ns(samples, n, || {
        for (p, w) in abi.pairs.iter().zip(warm.iter_mut()) {
            // SAFETY: as above.
            let s = unsafe { demcontact_collide(p.a, &p.pose_a, p.b, &p.pose_b, w, &mut out) };
            black_box((s, &out));
        }
    });
    let shapes = single.core_shapes();
    let core = median_ns(samples, n, || {
        for ((a, b), (pa, pb)) in shapes.iter().zip(&single.poses) {
            black_box(collide(a, pa, b, pb, None).ok());
        }
    });
    let parry_pairs = single.parry();
    let parry = median_ns(samples, n, || {
        for ((a, b), (pa, pb)) in &parry_pairs {
            // A prediction distance covering the separated pairs, so parry reports them too.
            black_box(query::contact(pa, a, pb, b, 0.3).ok());
        }
    });

    let batch_pairs = AbiPairs::new(&Pairs::new(100_000, 12));
    let m = batch_pairs.pairs.len();
    let mut batch_out = vec![demcontact_contact::default(); m];
    let mut batch_warm = vec![demcontact_warm_state::default(); m];
    let mut batch = |threads: u32| {
        median_ns(samples.min(21), m, || {
            // SAFETY: every array holds `m` elements; handles are live.
            let s = unsafe {
                demcontact_collide_batch(
                    batch_pairs.pairs.as_ptr(),
                    m,
                    batch_warm.as_mut_ptr(),
                    threads,
                    batch_out.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            };
            assert_eq!(s, DEMCONTACT_STATUS_OK);
        })
    };
    let batch1 = batch(1);
    let batch2 = batch(2);

    let mut t = Table::new(
        format!(
            "Sphere pairs (f64; 4096 pairs, half separated, half overlapping; medians of {samples} passes, ns/query)"
        ),
        &["query", "demcontact", "parry3d-f64 0.31 query::contact", "parry / demcontact"],
    );
    let ratio = |x: f64| format!("{:.1}x", parry / x);
    t.row(vec![
        "C ABI demcontact_collide, cold, 16 shared shapes".into(),
        ns(abi_cold_shared),
        ns(parry),
        ratio(abi_cold_shared),
    ]);
    t.row(vec![
        "C ABI demcontact_collide, cold, a shape per body".into(),
        ns(abi_cold),
        ns(parry),
        ratio(abi_cold),
    ]);
    t.row(vec![
        "C ABI demcontact_collide, warm, a shape per body".into(),
        ns(abi_warm),
        ns(parry),
        ratio(abi_warm),
    ]);
    t.row(vec![
        "Rust core narrow::collide, shapes inline".into(),
        ns(core),
        ns(parry),
        ratio(core),
    ]);
    t.row(vec![
        "C ABI batch, warm, threads = 1 (100000 pairs)".into(),
        ns(batch1),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "C ABI batch, warm, threads = 2 (100000 pairs)".into(),
        ns(batch2),
        String::new(),
        format!("speed-up over 1 thread: {:.2}x", batch1 / batch2),
    ]);
    t
}
