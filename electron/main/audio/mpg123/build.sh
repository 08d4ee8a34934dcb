#!/usr/bin/env bash
# Rebuilds mpg123.wasm: libmpg123 1.31.2 (LGPL-2.1, Debian bookworm's source package) with our two patches,
# and glue.c, compiled for wasm32-wasi with Debian's clang 14 at -O3. The result is committed, so neither the app, the tests nor CI need a
# C toolchain; run this to reproduce it or to move to a newer mpg123 (see README.md beside it).
# Needs root (apt) and the Debian mirror.   Usage: bash electron/main/audio/mpg123/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${MPG123_WASM_WORK:-/tmp/takedesk-mpg123-wasm}
flags=${MPG123_CFLAGS:-"-O3 -ffast-math -msimd128"}
mkdir -p "$work"

apt-get install -y -qq clang lld wasi-libc libclang-rt-14-dev-wasm32 autotools-dev dpkg-dev patch > /dev/null
if [ ! -f /etc/apt/sources.list.d/takedesk-deb-src.sources ]; then
  cat > /etc/apt/sources.list.d/takedesk-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt-get update -qq
fi
cd "$work"
# The mirror may lack the upstream signature (.orig.tar.bz2.asc, a 404): apt then fails with the tarball fetched.
ls mpg123_1.31.2.orig.tar.bz2 > /dev/null 2>&1 || apt-get source --download-only mpg123=1.31.2-1+deb12u1 > /dev/null || true
ls mpg123_1.31.2.orig.tar.bz2 > /dev/null
rm -rf mpg123-1.31.2
tar xjf mpg123_1.31.2.orig.tar.bz2
cd mpg123-1.31.2
# mpg123 1.31's config.sub predates wasi; Debian's autotools-dev has one that knows it.
cp /usr/share/misc/config.sub build/config.sub
cp /usr/share/misc/config.guess build/config.guess
# Our changes to mpg123: the synthesis windowing in wasm SIMD (synth-wasm-simd.patch), and faster reading of the
# layer III Huffman codes, the same codes read (huffman-wasm.patch). See README.md.
patch -p1 < "$here/synth-wasm-simd.patch"
patch -p1 < "$here/huffman-wasm.patch"
# wasi-libc defines lseek as a macro; a call through a function pointer named lseek must not expand it.
sed -i 's/return rdat->lseek(rdat->filept, offset, whence);/return (rdat->lseek)(rdat->filept, offset, whence);/' \
  src/libmpg123/readers.c
cc="clang --target=wasm32-wasi --sysroot=/usr -isystem /usr/include/wasm32-wasi -L/usr/lib/wasm32-wasi"
CC="$cc" AR=llvm-ar-14 RANLIB=llvm-ranlib-14 CFLAGS="$flags" ./configure --host=wasm32-unknown-wasi \
  --with-cpu=generic_fpu --disable-shared --enable-static --disable-modules --disable-network \
  --with-audio=dummy --with-default-audio=dummy --disable-largefile > /dev/null
sed -i "s/^CFLAGS = .*/CFLAGS = $flags/" Makefile
make -j"$(nproc)" src/libmpg123/libmpg123.la > /dev/null
# Reactor: no main(); the host calls _initialize once, then the td_* exports. Stripped: names are not shipped.
$cc $flags -mexec-model=reactor -Wl,--strip-all -I src/libmpg123 "$here/glue.c" src/libmpg123/.libs/libmpg123.a \
  -lm -o "$here/mpg123.wasm"
cp COPYING "$here/COPYING"
sha256sum "$here/mpg123.wasm"
