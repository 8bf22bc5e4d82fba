//! Criterion benchmarks of the sphere pair: demcontact's C ABI query (cold and warm) and the Rust
//! core, beside parry3d-f64's ball-ball contact on the same pairs (`cargo bench`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use demcontact::ffi::{demcontact_collide, demcontact_contact, demcontact_warm_state};
use demcontact::narrow::collide;
use demcontact_cli::sphere_pairs::{AbiPairs, Pairs};
use parry3d_f64::query;
use std::hint::black_box;

fn sphere_pairs(c: &mut Criterion) {
    let pairs = Pairs::new(1024, 11);
    let abi = AbiPairs::new(&pairs);
    let mut group = c.benchmark_group("sphere_pair");
    group.throughput(Throughput::Elements(pairs.radii.len() as u64));
    let mut out = demcontact_contact::default();
    group.bench_function("demcontact_collide_cold", |b| {
        b.iter(|| {
            for i in 0..abi.pairs.len() {
                black_box(abi.collide_cold(i, &mut out));
            }
        })
    });
    let mut warm = vec![demcontact_warm_state::default(); abi.pairs.len()];
    group.bench_function("demcontact_collide_warm", |b| {
        b.iter(|| {
            for (p, w) in abi.pairs.iter().zip(warm.iter_mut()) {
                // SAFETY: as above.
                black_box(unsafe {
                    demcontact_collide(p.a, &p.pose_a, p.b, &p.pose_b, w, &mut out)
                });
            }
        })
    });
    let shapes = pairs.core_shapes();
    group.bench_function("core_collide", |b| {
        b.iter(|| {
            for ((sa, sb), (pa, pb)) in shapes.iter().zip(&pairs.poses) {
                black_box(collide(sa, pa, sb, pb, None).ok());
            }
        })
    });
    let parry_pairs = pairs.parry();
    group.bench_function("parry3d_f64_contact", |b| {
        b.iter(|| {
            for ((ba, bb), (pa, pb)) in &parry_pairs {
                black_box(query::contact(pa, ba, pb, bb, 0.3).ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, sphere_pairs);
criterion_main!(benches);
