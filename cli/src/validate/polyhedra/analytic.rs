//! The hand-made cases of [`analytic_cases`]: our answer against the one derived by hand.
//!
//! Penetrating variants: the depth must be the analytic minimum translation distance within
//! [`DEPTH_TOLERANCE`] relative, the normal within [`NORMAL_TOLERANCE`], and the composite contact
//! type the case's feature pair. Separated variants: we must report apart, with a certified gap
//! (at most the exact distance); the gap and normal errors are printed, not judged, because the
//! kernel stops at the first separating cover, which bounds the distance without having to be the
//! closest one.

use super::{angle, signed, verdict, DEPTH_TOLERANCE, NORMAL_TOLERANCE};
use crate::polyhedron_pairs::KernelBody;
use crate::polyhedron_reference::{analytic_cases, AnalyticCase};
use crate::table::{sci, Table};
use crate::validate::Outcome;
use demcontact::narrow::collide;
use demcontact::{ContactKind, WarmState};

/// The composite type a case's feature pair is reported as.
fn expected_kind(contact_type: &str) -> ContactKind {
    match contact_type {
        "f-f" => ContactKind::FaceFace,
        "e-e crossing" => ContactKind::EdgeEdge,
        "v-f" => ContactKind::VertexFace,
        "e-f" => ContactKind::EdgeFace,
        other => panic!("analytic case of unknown type {other:?}"),
    }
}

/// One group of cases (a configuration in its four variants: separated or penetrating, moved or
/// not).
struct Group {
    name: String,
    expected: ContactKind,
    kinds: Vec<ContactKind>,
    depth_error: f64,
    normal_error: f64,
    gap_error: f64,
    gap_normal_error: f64,
    covers: u32,
    cases: u32,
    passed: bool,
}

/// The configuration's name without its variant.
fn base_name(case: &AnalyticCase) -> String {
    case.name
        .split(", ")
        .next()
        .unwrap_or(&case.name)
        .to_string()
}

/// Runs every case cold through [`collide`]; the table and whether every check passed.
pub fn validate() -> Outcome {
    let mut groups: Vec<Group> = Vec::new();
    for case in analytic_cases() {
        let (a, b) = (
            KernelBody::new(case.a.clone()),
            KernelBody::new(case.b.clone()),
        );
        let c = collide(
            &a.shape,
            &case.pose_a,
            &b.shape,
            &case.pose_b,
            Some(&mut WarmState::cold()),
        )
        .expect("a polyhedron pair is supported");
        let name = base_name(&case);
        let index = match groups.iter().position(|g| g.name == name) {
            Some(i) => i,
            None => {
                groups.push(Group {
                    name,
                    expected: expected_kind(case.contact_type),
                    kinds: Vec::new(),
                    depth_error: 0.0,
                    normal_error: 0.0,
                    gap_error: 0.0,
                    gap_normal_error: 0.0,
                    covers: 0,
                    cases: 0,
                    passed: true,
                });
                groups.len() - 1
            }
        };
        let g = &mut groups[index];
        g.cases += 1;
        g.covers += c.iterations;
        let exact = case.signed_distance;
        let normal_error = angle(&c.normal, &case.normal);
        if exact < 0.0 {
            let depth = -exact;
            let error = (c.penetration - depth).abs() / depth;
            g.depth_error = g.depth_error.max(error);
            g.normal_error = g.normal_error.max(normal_error);
            if !g.kinds.contains(&c.kind) {
                g.kinds.push(c.kind);
            }
            g.passed &= c.touching
                && error <= DEPTH_TOLERANCE
                && normal_error <= NORMAL_TOLERANCE
                && c.kind == g.expected;
        } else {
            let certified = !c.touching && c.separation <= exact * (1.0 + 1e-12);
            g.gap_error = g.gap_error.max((signed(&c) - exact).abs() / exact);
            g.gap_normal_error = g.gap_normal_error.max(normal_error);
            g.passed &= certified;
        }
    }
    let mut t = Table::new(
        format!(
            "Polyhedra (a): {} analytic cases (each configuration separated by 2e-3 and \
             penetrating by 1.5e-3, both also moved rigidly), cold queries; errors are maxima over \
             the variants",
            groups.iter().map(|g| g.cases).sum::<u32>()
        ),
        &[
            "configuration",
            "type (analytic)",
            "type (ours, penetrating)",
            "depth rel. error",
            "normal error (rad)",
            "gap rel. error (separated)",
            "normal error, separated",
            "mean covers",
            "check",
        ],
    );
    let mut passed = true;
    for g in &groups {
        passed &= g.passed;
        t.row(vec![
            g.name.clone(),
            format!("{:?}", g.expected),
            g.kinds
                .iter()
                .map(|k| format!("{k:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            sci(g.depth_error),
            sci(g.normal_error),
            sci(g.gap_error),
            sci(g.gap_normal_error),
            format!("{:.1}", g.covers as f64 / g.cases.max(1) as f64),
            verdict(g.passed),
        ]);
    }
    let mut report = t.render();
    report += &format!(
        "\ncheck: penetrating: touching, depth within {DEPTH_TOLERANCE:.0e} relative, normal within \
         {NORMAL_TOLERANCE:.0e} rad, type as analytic; separated: apart with a certified gap (<= \
         the exact distance). The gap and its normal are those of the first separating cover met \
         (a lower bound of the distance), not judged.\nanalytic cases: {}\n",
        verdict(passed)
    );
    Outcome { report, passed }
}
