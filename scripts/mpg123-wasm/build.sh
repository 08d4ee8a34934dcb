#!/usr/bin/env bash
# Probe (not part of the app or CI yet): builds mpg123 from Debian's source for wasm32-wasi with Debian's clang 14
# and links glue.c into out/mpg123-<flags>.wasm, to measure whether our own build of the decoder beats the
# -Oz build inside the mpg123-decoder package (see README, Status and open work: MP3 peaks).
# Needs root (apt) and the Debian mirror. Usage: bash scripts/mpg123-wasm/build.sh [CFLAGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${MPG123_WASM_WORK:-/tmp/takedesk-mpg123-wasm}
flags=${*:-"-O3"}
mkdir -p "$work" "$here/out"

apt-get install -y -qq clang lld wasi-libc libclang-rt-14-dev-wasm32 autotools-dev > /dev/null
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
ls mpg123_*.orig.tar.bz2 > /dev/null 2>&1 || apt-get source --download-only mpg123 > /dev/null 2>&1 || true
src=$(ls -d mpg123-*/ 2>/dev/null | head -1 || true)
if [ -z "$src" ]; then
  tar xjf mpg123_*.orig.tar.bz2
  src=$(ls -d mpg123-*/ | head -1)
fi
cd "$src"
# mpg123 1.31's config.sub predates wasi; Debian's autotools-dev has one that knows it.
cp /usr/share/misc/config.sub build/config.sub
cp /usr/share/misc/config.guess build/config.guess
# wasi-libc defines lseek as a macro; a call through a function pointer named lseek must not expand it.
sed -i 's/return rdat->lseek(rdat->filept, offset, whence);/return (rdat->lseek)(rdat->filept, offset, whence);/' \
  src/libmpg123/readers.c
cc="clang --target=wasm32-wasi --sysroot=/usr -isystem /usr/include/wasm32-wasi -L/usr/lib/wasm32-wasi"
make distclean > /dev/null 2>&1 || true
CC="$cc" AR=llvm-ar-14 RANLIB=llvm-ranlib-14 CFLAGS="$flags" ./configure --host=wasm32-unknown-wasi \
  --with-cpu=generic_fpu --disable-shared --enable-static --disable-modules --disable-network \
  --with-audio=dummy --with-default-audio=dummy --disable-largefile > /dev/null
sed -i "s/^CFLAGS = .*/CFLAGS = $flags/" Makefile
make -j"$(nproc)" src/libmpg123/libmpg123.la > /dev/null
name=$(echo "$flags" | tr -d ' -')
$cc $flags -mexec-model=reactor -I src/libmpg123 "$here/glue.c" src/libmpg123/.libs/libmpg123.a -lm \
  -o "$here/out/mpg123-$name.wasm" 2> /dev/null
echo "$here/out/mpg123-$name.wasm"
