// Great-circle distances four at a time, in the processor's vector lanes.
//
// A batch measures hundreds of thousands of distances to news markers. libm's sin, cos and
// asin, called one after another, each with its own range checks and branches, cost more
// than the rest of a row's suggestion. Here every lane takes the same straight-line steps:
// the angle is reduced by the nearest multiple of pi/2 (Cody and Waite, with pi/2 split into
// its first 33 bits, exact in every product here, and the rest), and the polynomials are
// fdlibm's (Sun Microsystems, freely distributable): __kernel_sin, __kernel_cos and the
// rational approximation of asin, as musl writes them. Each is within about one unit in the
// last place, so a distance agrees with libm's haversine to a few units in the last place up to
// a few thousand kilometres, and within 1e-13 of itself up to 19,000 km; towards the antipode,
// where asin magnifies every last-place error and the haversine itself is good to a metre, the
// two differ by up to about a millimetre.
//
// Only the compiler's vector extensions are used (no instruction-set intrinsics), with
// contraction into fused multiply-adds off: the same inputs give the same bits on every
// processor, and one pair gives the same answer alone or among three others. On x86-64 the
// loop is also compiled for AVX2 and chosen when the processor has it.
#ifndef GEONEWS_LANE_MATH_H
#define GEONEWS_LANE_MATH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#pragma clang fp contract(off)

typedef double geonews_v4d __attribute__((vector_size(32)));
typedef long long geonews_v4i __attribute__((vector_size(32)));

#define GEONEWS_LANES static inline __attribute__((always_inline))

// b in the lanes where m is set, else a.
GEONEWS_LANES geonews_v4d geonews_blend(geonews_v4d a, geonews_v4d b, geonews_v4i m) {
    return (geonews_v4d)(((geonews_v4i)a & ~m) | ((geonews_v4i)b & m));
}

// sin r for |r| <= pi/4 (fdlibm's __kernel_sin without a tail).
GEONEWS_LANES geonews_v4d geonews_sin_kernel(geonews_v4d x) {
    geonews_v4d z = x * x, w = z * z;
    geonews_v4d r1 = -1.98412698298579493134e-04 + z * 2.75573137070700676789e-06;
    geonews_v4d r2 = -2.50507602534068634195e-08 + z * 1.58969099521155010221e-10;
    geonews_v4d r = (8.33333333332248946124e-03 + z * r1) + z * w * r2;
    return x + z * x * (-1.66666666666666324348e-01 + z * r);
}

// cos r for |r| <= pi/4 (fdlibm's __kernel_cos without a tail).
GEONEWS_LANES geonews_v4d geonews_cos_kernel(geonews_v4d x) {
    geonews_v4d z = x * x, w = z * z;
    geonews_v4d r1 = 4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * 2.48015872894767294178e-05);
    geonews_v4d r2 = -2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11);
    geonews_v4d r = z * r1 + w * w * r2;
    geonews_v4d hz = 0.5 * z, v = 1.0 - hz;
    return v + (((1.0 - v) - hz) + z * r);
}

// x less the multiple n of pi/2 nearest it, for |x| <= 8; n's low bits go to *quadrant.
// Adding 1.5 * 2^52 rounds to an integer, which the sum's low bits then hold.
GEONEWS_LANES geonews_v4d geonews_reduce(geonews_v4d x, geonews_v4i *quadrant) {
    geonews_v4d shifted = x * 6.36619772367581382433e-01 + 6755399441055744.0;
    geonews_v4d n = shifted - 6755399441055744.0;
    *quadrant = (geonews_v4i)shifted;
    return (x - n * 1.57079632673412561417e+00) - n * 6.07710050650619224932e-11;
}

// sin^2 x for |x| <= 8: sin^2 r, or in an odd quadrant cos^2 r as 1 - sin^2 r (at least 1/2
// there, so the subtraction keeps the precision), with one polynomial.
GEONEWS_LANES geonews_v4d geonews_sin_squared(geonews_v4d x) {
    geonews_v4i quadrant;
    geonews_v4d r = geonews_reduce(x, &quadrant);
    geonews_v4d s = geonews_sin_kernel(r);
    geonews_v4d s2 = s * s;
    return geonews_blend(s2, 1.0 - s2, (quadrant & 1) != 0);
}

// cos x for |x| <= 8: the sine one quadrant on, negated in quadrants 2 and 3.
GEONEWS_LANES geonews_v4d geonews_cos(geonews_v4d x) {
    geonews_v4i quadrant;
    geonews_v4d r = geonews_reduce(x, &quadrant);
    quadrant = quadrant + 1;
    geonews_v4d v = geonews_blend(geonews_sin_kernel(r), geonews_cos_kernel(r), (quadrant & 1) != 0);
    return (geonews_v4d)((geonews_v4i)v ^ ((quadrant & 2) << 62));
}

// fdlibm's R(z) ~ (asin sqrt z - sqrt z) / sqrt z^3, for 0 <= z <= 1/2.
GEONEWS_LANES geonews_v4d geonews_asin_ratio(geonews_v4d z) {
    geonews_v4d p = 7.91534994289814532176e-04 + z * 3.47933107596021167570e-05;
    p = -4.00555345006794114027e-02 + z * p;
    p = 2.01212532134862925881e-01 + z * p;
    p = -3.25565818622400915405e-01 + z * p;
    p = z * (1.66666666666666657415e-01 + z * p);
    geonews_v4d q = -6.88283971605453293030e-01 + z * 7.70381505559019352791e-02;
    q = 2.02094576023350569471e+00 + z * q;
    q = -2.40339491173441421878e+00 + z * q;
    q = 1.0 + z * q;
    return p / q;
}

// asin x for 0 <= x <= 1: fdlibm's asin, whose three ranges share one R. Below 1/2,
// x + x R(x^2); from 1/2, pi/2 - 2 asin sqrt z with z = (1 - x)/2, where
// asin sqrt z = sqrt z + sqrt z R(z), and below 0.975 sqrt z split in two parts.
GEONEWS_LANES geonews_v4d geonews_asin(geonews_v4d x) {
    const double half_pi = 1.57079632679489655800e+00, half_pi_tail = 6.12323399573676603587e-17;
    geonews_v4i large = x >= 0.5;
    geonews_v4d z = geonews_blend(x * x, (1.0 - x) * 0.5, large);
    geonews_v4d r = geonews_asin_ratio(z);
    geonews_v4d small = x + x * r;
    geonews_v4d s = __builtin_elementwise_sqrt(z);
    geonews_v4d near_one = half_pi - (2.0 * (s + s * r) - half_pi_tail);
    geonews_v4d f = (geonews_v4d)((geonews_v4i)s & (long long)0xFFFFFFFF00000000ULL);
    geonews_v4d c = (z - f * f) / (s + f);
    geonews_v4d tail = half_pi_tail - 2.0 * c, head = 0.5 * half_pi - 2.0 * f;
    geonews_v4d middle = 0.5 * half_pi - ((2.0 * s * r - tail) - head);
    return geonews_blend(small, geonews_blend(middle, near_one, x >= 0.975), large);
}

// The haversine of GreatCircle.distance(from:to:cosineOfLatitude:), step for step, in
// kilometres on a sphere of radius `radius_km`. Latitudes within +-90 and longitudes within
// +-180 (every angle reduced is then within +-pi).
GEONEWS_LANES geonews_v4d geonews_haversine_lanes(
    geonews_v4d lat1, geonews_v4d lon1, geonews_v4d lat2, geonews_v4d lon2, geonews_v4d cos_lat2, double radius_km) {
    const double pi = 3.14159265358979311600e+00;
    geonews_v4d phi1 = lat1 * pi / 180.0, phi2 = lat2 * pi / 180.0;
    geonews_v4d dphi = phi2 - phi1;
    geonews_v4d dlambda = (lon2 - lon1) * pi / 180.0;
    geonews_v4d h = geonews_sin_squared(dphi / 2.0) + geonews_cos(phi1) * cos_lat2 * geonews_sin_squared(dlambda / 2.0);
    geonews_v4d a = __builtin_elementwise_sqrt(h);
    a = geonews_blend(a, (geonews_v4d){1.0, 1.0, 1.0, 1.0}, a > 1.0);
    return 2.0 * radius_km * geonews_asin(a);
}

// out[i] = the great-circle km from (lat1[i], lon1[i]) to (lat2[i], lon2[i]), given
// cos_lat2[i] = cos(lat2[i] in radians), for i < count; four at a time, the last group padded.
GEONEWS_LANES void geonews_haversine_loop(
    size_t count, const double *lat1, const double *lon1, const double *lat2, const double *lon2, const double *cos_lat2,
    double radius_km, double *out) {
    size_t i = 0;
    geonews_v4d a, b, c, d, e, r;
    for (; i + 4 <= count; i += 4) {
        memcpy(&a, lat1 + i, sizeof a);
        memcpy(&b, lon1 + i, sizeof b);
        memcpy(&c, lat2 + i, sizeof c);
        memcpy(&d, lon2 + i, sizeof d);
        memcpy(&e, cos_lat2 + i, sizeof e);
        r = geonews_haversine_lanes(a, b, c, d, e, radius_km);
        memcpy(out + i, &r, sizeof r);
    }
    if (i == count) return;
    double pad[5][4], result[4];
    for (size_t k = 0; k < 4; k++) {
        size_t j = i + k < count ? i + k : count - 1;
        pad[0][k] = lat1[j];
        pad[1][k] = lon1[j];
        pad[2][k] = lat2[j];
        pad[3][k] = lon2[j];
        pad[4][k] = cos_lat2[j];
    }
    memcpy(&a, pad[0], sizeof a);
    memcpy(&b, pad[1], sizeof b);
    memcpy(&c, pad[2], sizeof c);
    memcpy(&d, pad[3], sizeof d);
    memcpy(&e, pad[4], sizeof e);
    r = geonews_haversine_lanes(a, b, c, d, e, radius_km);
    memcpy(result, &r, sizeof r);
    for (size_t k = 0; i + k < count; k++) out[i + k] = result[k];
}

// The loop for any x86-64 (two 128-bit halves per vector) or other processor.
static inline void geonews_haversine_km_baseline(
    size_t count, const double *lat1, const double *lon1, const double *lat2, const double *lon2, const double *cos_lat2,
    double radius_km, double *out) {
    geonews_haversine_loop(count, lat1, lon1, lat2, lon2, cos_lat2, radius_km, out);
}

#if defined(__x86_64__)
#include <cpuid.h>

// The same loop compiled for AVX2, whose 256-bit registers hold the four lanes whole. AVX2
// has no fused multiply-add (that is FMA's), and every operation rounds as it does in the
// baseline: the same bits.
__attribute__((target("avx2"))) static inline void geonews_haversine_km_avx2(
    size_t count, const double *lat1, const double *lon1, const double *lat2, const double *lon2, const double *cos_lat2,
    double radius_km, double *out) {
    geonews_haversine_loop(count, lat1, lon1, lat2, lon2, cos_lat2, radius_km, out);
}

// Whether the processor has AVX2 and the system saves its registers (CPUID and XGETBV),
// asked once.
static inline int geonews_has_avx2(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer >= 0) return answer;
    unsigned a, b, c, d;
    answer = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) answer = 1;
    }
    __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    return answer;
}
#endif

static inline void geonews_haversine_km(
    size_t count, const double *lat1, const double *lon1, const double *lat2, const double *lon2, const double *cos_lat2,
    double radius_km, double *out) {
#if defined(__x86_64__)
    if (geonews_has_avx2()) {
        geonews_haversine_km_avx2(count, lat1, lon1, lat2, lon2, cos_lat2, radius_km, out);
        return;
    }
#endif
    geonews_haversine_km_baseline(count, lat1, lon1, lat2, lon2, cos_lat2, radius_km, out);
}

#endif
