#!/usr/bin/env bash
# Re-make noble-bls12-381.js: one readable (unminified) classic script holding @noble/curves'
# BLS12-381 and the @noble/hashes it uses, at the exact versions of package.json and
# package-lock.json; it sets window.nobleCurves (a classic script, not a module, so that
# the page also works opened from disk, where browsers refuse modules). Run from anywhere; needs node and npm. Then review the diff, update
# the versions in the banner line below and in docs/fairdeal.md, and commit.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
curves=$(node -p 'require("./node_modules/@noble/curves/package.json").version')
hashes=$(node -p 'require("./node_modules/@noble/hashes/package.json").version')
npx esbuild entry.js --bundle --format=iife --global-name=nobleCurves --legal-comments=inline \
  --banner:js="// @noble/curves ${curves} and @noble/hashes ${hashes} (MIT, see LICENSE-noble), bundled by web/verify/vendor/revendor.sh. Do not edit." \
  --outfile=noble-bls12-381.js
cp node_modules/@noble/curves/LICENSE LICENSE-noble
rm -rf node_modules
sha256sum noble-bls12-381.js | tee SHA256SUMS
