//! DEM-like motion of a pair of blocks in small steps, in one of two modes ([`Mode`]):
//!
//! * resting: B lies with its largest face on A's largest face, slides across it, twists about its
//!   normal and rocks (so face-face contacts turn into edge-face and vertex-face ones and back);
//! * tumbling: both turn freely, the contact direction wanders over A's surface, B's extreme
//!   vertex facing A's, shifted across the contact direction by up to the profile's
//!   [`GapProfile::shift`] of the size (turning with it).
//!
//! Either way the gap between the support planes along the contact direction follows a
//! [`GapProfile`]. The validation's warm-versus-cold sequences and the benchmarks'
//! updated-detection workloads are such sequences.

use crate::polyhedron_pairs::{place, KernelBody};
use crate::polyhedron_reference::{random_body, RefPolyhedron};
use crate::sampling::{self, SceneRng};
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};
use rand::Rng;
use std::f64::consts::TAU;

/// How the support-plane gap along the contact direction evolves, relative to the pair's size
/// (the mean of the two diameters): `size (mean + amplitude sin(2 pi step / period))`.
///
/// A positive gap proves the pair apart; a negative one steers it into contact (the reference
/// decides whether it touches).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GapProfile {
    /// The mean gap, relative to the size.
    pub mean: f64,
    /// The amplitude of the oscillation, relative to the size.
    pub amplitude: f64,
    /// The period of the oscillation, in steps.
    pub period: f64,
    /// The largest shift of a tumbling sequence's B across the contact direction, relative to the
    /// size (each sequence draws its own, uniform over the disc, turning with the direction),
    /// which keeps the support-plane gap. Without it B's extreme vertex faces A's exactly, so
    /// the nearest features are two vertices at every step: GJK's easiest case (parry's
    /// `query::contact` on `Cuboid` took 0.72-0.78 times our time on such near-apart cubes, 1.45
    /// times it with a shift of up to 0.05; probe `lateral`, not committed). A shift also widens
    /// the true distance beyond the gap (cubes, gap 0.5-1.5 %: distance 0.9 % on average unshifted,
    /// 2.4 % with up to 0.05), so profiles that steer into contact keep 0.
    pub shift: f64,
}

impl GapProfile {
    /// In and out of contact: the gap swings from -1.2 % to +0.8 % of the size every 200 steps.
    pub const IN_AND_OUT: GapProfile = GapProfile {
        mean: -0.002,
        amplitude: 0.01,
        period: 200.0,
        shift: 0.0,
    };
    /// Touching: the support planes overlap by 0.5 % to 1.5 % of the size.
    pub const TOUCHING: GapProfile = GapProfile {
        mean: -0.01,
        amplitude: 0.005,
        period: 300.0,
        shift: 0.0,
    };
    /// Near but apart: a support-plane gap of 0.5 % to 1.5 % of the size, tumbling B shifted
    /// across it by up to 5 % of the size (as the validation's random pairs,
    /// `polyhedron_pairs::random_pair`), so that the nearest features vary.
    pub const NEAR_APART: GapProfile = GapProfile {
        mean: 0.01,
        amplitude: 0.005,
        period: 300.0,
        shift: 0.05,
    };

    /// The gap at `step` relative to the size.
    pub fn at(&self, step: usize) -> f64 {
        self.mean + self.amplitude * (TAU * step as f64 / self.period).sin()
    }
}

/// How far things move per step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Steps {
    /// B's rotation per step (rad): its twist when resting; when tumbling A turns at a third of
    /// it and the contact direction at half.
    pub turn: f64,
    /// Resting: the amplitude of B's slide across A's face, relative to the smaller of the two
    /// faces' radii.
    pub slide: f64,
    /// Resting: the period of the slide, in steps.
    pub slide_period: f64,
    /// Resting: the amplitude of B's rocking (rad).
    pub tilt: f64,
    /// Resting: the period of the rocking, in steps.
    pub tilt_period: f64,
}

impl Steps {
    /// DEM-like: 1e-3 rad per step; resting, a slide of half the face radius over 2000 steps
    /// (about 1.6e-3 of the radius per step) and a rocking of 0.02 rad over 700 steps.
    pub const DEM: Steps = Steps {
        turn: 1e-3,
        slide: 0.5,
        slide_period: 2000.0,
        tilt: 0.02,
        tilt_period: 700.0,
    };
}

/// How the blocks meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// B on A, largest face on largest face, sliding, twisting and rocking.
    Resting,
    /// Both turning freely, extreme vertex facing extreme vertex along a wandering direction.
    Tumbling,
}

impl Mode {
    /// A short name for tables.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Resting => "resting (face on face, sliding)",
            Mode::Tumbling => "tumbling",
        }
    }
}

/// A pair in motion: the two bodies and their world poses at each step.
#[derive(Debug, Clone)]
pub struct Motion {
    /// Body A.
    pub a: KernelBody,
    /// Body B.
    pub b: KernelBody,
    /// `(pose_a, pose_b)` per step, world frame.
    pub poses: Vec<(Pose, Pose)>,
}

/// A random rotation rate of `rate` rad per step, as a scaled axis.
fn spin(rng: &mut SceneRng, rate: f64) -> Vector3<f64> {
    sampling::unit_vector(rng) * rate
}

/// `steps` poses of `a` and `b` moving as the module documentation says, from random initial
/// orientations, A in `[-2, 2]^3`.
pub fn motion(
    a: KernelBody,
    b: KernelBody,
    steps: usize,
    mode: Mode,
    gap: GapProfile,
    moves: Steps,
    rng: &mut SceneRng,
) -> Motion {
    let poses = match mode {
        Mode::Resting => resting(&a, &b, steps, gap, moves, rng),
        Mode::Tumbling => tumbling(&a, &b, steps, gap, moves, rng),
    };
    Motion { a, b, poses }
}

/// A face's outward normal, centroid (mean of its corners) and radius (its farthest corner from
/// the centroid), body frame: of the face with the largest area.
fn largest_face(p: &RefPolyhedron) -> (Vector3<f64>, Vector3<f64>, f64) {
    let area = |(n, face): &(Vector3<f64>, Vec<usize>)| -> f64 {
        let v = |k: usize| p.vertices[face[k % face.len()]];
        (1..face.len() - 1)
            .map(|k| n.dot(&(v(k) - v(0)).cross(&(v(k + 1) - v(0)))))
            .sum::<f64>()
    };
    let (n, face) = p
        .faces
        .iter()
        .max_by(|x, y| area(x).total_cmp(&area(y)))
        .expect("a solid has faces");
    let centroid = face.iter().map(|&i| p.vertices[i]).sum::<Vector3<f64>>() / face.len() as f64;
    let radius = face
        .iter()
        .map(|&i| (p.vertices[i] - centroid).norm())
        .fold(0.0, f64::max);
    (*n, centroid, radius)
}

/// Two unit vectors perpendicular to the unit `n` and to each other.
fn across(n: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let helper = if n.x.abs() < 0.6 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let e1 = n.cross(&helper).normalize();
    (e1, n.cross(&e1))
}

/// The resting mode's poses.
fn resting(
    a: &KernelBody,
    b: &KernelBody,
    steps: usize,
    gap: GapProfile,
    moves: Steps,
    rng: &mut SceneRng,
) -> Vec<(Pose, Pose)> {
    let pose_a = sampling::pose(rng, 2.0);
    let (n, c_a, r_a) = largest_face(&a.reference);
    let (m, c_b, r_b) = largest_face(&b.reference);
    let (e1, e2) = across(&n);
    // B's face turned onto -n (A's frame); a half turn when they already face each other.
    let onto = UnitQuaternion::rotation_between(&m, &-n).unwrap_or_else(|| {
        UnitQuaternion::from_axis_angle(
            &nalgebra::Unit::new_normalize(across(&m).0),
            std::f64::consts::PI,
        )
    });
    let size = 0.5 * (a.size() + b.size());
    let reach = moves.slide * r_a.min(r_b);
    let (phase_slide, phase_tilt, phase_twist) = (
        rng.random_range(0.0..TAU),
        rng.random_range(0.0..TAU),
        rng.random_range(0.0..TAU),
    );
    let top_a = a
        .reference
        .vertices
        .iter()
        .map(|v| n.dot(v))
        .fold(f64::NEG_INFINITY, f64::max);
    (0..steps)
        .map(|k| {
            let t = k as f64;
            let twist = UnitQuaternion::from_scaled_axis(n * (phase_twist + moves.turn * t));
            let tilt_axis = e1 * (TAU * t / (3.0 * moves.tilt_period)).cos()
                + e2 * (TAU * t / (3.0 * moves.tilt_period)).sin();
            let tilt = moves.tilt * (phase_tilt + TAU * t / moves.tilt_period).sin();
            let rocking = UnitQuaternion::from_scaled_axis(tilt_axis * tilt);
            let q = twist * rocking * onto;
            let phi = phase_slide + TAU * t / moves.slide_period;
            let lateral = (e1 * phi.cos() + e2 * phi.sin()) * reach;
            let mut p = c_a + lateral - q * c_b;
            let bottom_b = b
                .reference
                .vertices
                .iter()
                .map(|v| n.dot(&(p + q * v)))
                .fold(f64::INFINITY, f64::min);
            p += n * (top_a + gap.at(k) * size - bottom_b);
            (
                pose_a,
                Pose::new(pose_a.transform_point(&p), pose_a.rotation * q),
            )
        })
        .collect()
}

/// The tumbling mode's poses.
fn tumbling(
    a: &KernelBody,
    b: &KernelBody,
    steps: usize,
    gap: GapProfile,
    moves: Steps,
    rng: &mut SceneRng,
) -> Vec<(Pose, Pose)> {
    let pose_a0 = sampling::pose(rng, 2.0);
    let rotation_b0 = sampling::rotation(rng);
    let u0 = sampling::unit_vector(rng);
    let (spin_a, spin_b, spin_u) = (
        spin(rng, moves.turn / 3.0),
        spin(rng, moves.turn),
        spin(rng, moves.turn / 2.0),
    );
    let size = 0.5 * (a.size() + b.size());
    // The shift: a random direction square to u0 (from `across`'s basis, never degenerate), of a
    // length uniform over the disc of radius `shift * size`.
    let (e1, e2) = across(&u0);
    let phi = rng.random_range(0.0..TAU);
    let lateral0 = (e1 * phi.cos() + e2 * phi.sin())
        * (gap.shift * size * rng.random_range(0.0f64..1.0).sqrt());
    (0..steps)
        .map(|k| {
            let t = k as f64;
            let turn = |w: &Vector3<f64>| UnitQuaternion::from_scaled_axis(w * t);
            let pose_a = Pose::new(pose_a0.position, turn(&spin_a) * pose_a0.rotation);
            let rotation_b = turn(&spin_b) * rotation_b0;
            let u = turn(&spin_u) * u0;
            let position = place(
                &a.reference,
                &pose_a,
                &b.reference,
                &rotation_b,
                &u,
                gap.at(k) * size,
                &(turn(&spin_u) * lateral0),
            );
            (pose_a, Pose::new(position, rotation_b))
        })
        .collect()
}

/// Which blocks a sequence moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocks {
    /// Two unit cubes.
    Cubes,
    /// Two random convex polyhedra ([`random_body`]) of up to this many vertices.
    Random(usize),
}

impl Blocks {
    /// The two bodies.
    pub fn bodies(&self, rng: &mut SceneRng) -> (KernelBody, KernelBody) {
        match *self {
            Blocks::Cubes => {
                let cube = KernelBody::new(RefPolyhedron::cuboid(0.5, 0.5, 0.5));
                (cube.clone(), cube)
            }
            Blocks::Random(max_vertices) => (
                KernelBody::new(random_body(rng, max_vertices)),
                KernelBody::new(random_body(rng, max_vertices)),
            ),
        }
    }

    /// A short name for tables.
    pub fn name(&self) -> String {
        match *self {
            Blocks::Cubes => "cubes".into(),
            Blocks::Random(n) => format!("random, 4-{n} vertices"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyhedron_reference::{sat_penetration, separation_distance};

    #[test]
    fn steps_are_small_and_the_gap_follows_the_profile() {
        for mode in [Mode::Resting, Mode::Tumbling] {
            let mut rng = sampling::rng(4);
            let (a, b) = Blocks::Cubes.bodies(&mut rng);
            let m = motion(
                a,
                b,
                400,
                mode,
                GapProfile::NEAR_APART,
                Steps::DEM,
                &mut rng,
            );
            assert_eq!(m.poses.len(), 400);
            for w in m.poses.windows(2) {
                let (a0, b0) = &w[0];
                let (a1, b1) = &w[1];
                assert!((a1.position - a0.position).norm() == 0.0);
                assert!((b1.position - b0.position).norm() < 0.01, "{mode:?}");
                assert!(b1.rotation.angle_to(&b0.rotation) < 1.5e-3, "{mode:?}");
            }
            // A positive support-plane gap proves the pair apart at every step.
            for (pa, pb) in &m.poses {
                assert!(sat_penetration(&m.a.reference, pa, &m.b.reference, pb).is_separated());
            }
        }
    }

    /// The tumbling shift of the near-apart profile: tip to tip, the nearest features of two
    /// cubes are two vertices at every step; shifted, at few.
    #[test]
    fn near_apart_tumbling_cubes_are_not_all_nearest_at_two_vertices() {
        let mut rng = sampling::rng(5);
        let (mut vertex_pairs, mut all) = (0, 0);
        for _ in 0..16 {
            let (a, b) = Blocks::Cubes.bodies(&mut rng);
            let m = motion(
                a,
                b,
                50,
                Mode::Tumbling,
                GapProfile::NEAR_APART,
                Steps::DEM,
                &mut rng,
            );
            for (pa, pb) in &m.poses {
                let (_, x, y) = separation_distance(&m.a.reference, pa, &m.b.reference, pb);
                let at_vertex = |body: &RefPolyhedron, pose: &Pose, p: &Vector3<f64>| {
                    let vertices = body.world_vertices(pose);
                    vertices.iter().any(|v| (v - p).norm() < 1e-9)
                };
                vertex_pairs += (at_vertex(&m.a.reference, pa, &x)
                    && at_vertex(&m.b.reference, pb, &y)) as usize;
                all += 1;
            }
        }
        let share = vertex_pairs as f64 / all as f64;
        assert!(share < 0.5, "{share}");
    }

    #[test]
    fn resting_cubes_touch_face_on_face() {
        let mut rng = sampling::rng(8);
        let (a, b) = Blocks::Cubes.bodies(&mut rng);
        let m = motion(
            a,
            b,
            50,
            Mode::Resting,
            GapProfile::TOUCHING,
            Steps::DEM,
            &mut rng,
        );
        for (pa, pb) in &m.poses {
            let sat = sat_penetration(&m.a.reference, pa, &m.b.reference, pb);
            assert!(!sat.is_separated());
            assert!(-sat.signed_gap() < 0.03);
        }
    }
}
