// What the verify page takes from @noble/curves: BLS12-381, for drand quicknet's
// signatures (bls-unchained-g1-rfc9380: G1 signatures, a G2 public key). Bundled as a
// classic script that sets window.nobleCurves = { bls12_381 }.
export { bls12_381 } from "@noble/curves/bls12-381.js";
