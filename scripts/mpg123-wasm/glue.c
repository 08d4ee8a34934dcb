/*
 * Probe glue (scripts/mpg123-wasm/build.sh links it with libmpg123 for wasm32-wasi): feed-mode decoding to
 * interleaved float, the way the app's decoder would use it. dec_peak() keeps the output observable so the
 * optimiser cannot drop the decode.
 */
#include <stdlib.h>
#include <mpg123.h>
static mpg123_handle *mh;
static double peak = 0;
__attribute__((export_name("dec_open"))) int dec_open(void) {
  int err = 0;
  mpg123_init();
  mh = mpg123_new(NULL, &err);
  mpg123_param(mh, MPG123_FLAGS, MPG123_GAPLESS | MPG123_FORCE_FLOAT | MPG123_QUIET, 0.);
  mpg123_format_none(mh);
  mpg123_format(mh, 48000, MPG123_STEREO | MPG123_MONO, MPG123_ENC_FLOAT_32);
  mpg123_format(mh, 44100, MPG123_STEREO | MPG123_MONO, MPG123_ENC_FLOAT_32);
  return mpg123_open_feed(mh);
}
__attribute__((export_name("dec_alloc"))) void *dec_alloc(int n) { return malloc(n); }
/* Feeds `len` bytes and decodes all it can into `out`; returns float samples produced. */
__attribute__((export_name("dec_feed"))) long dec_feed(unsigned char *in, int len, float *out, int outcap) {
  size_t done = 0, total = 0;
  int rc = mpg123_decode(mh, in, len, (unsigned char *)out, outcap, &done);
  total += done;
  while (rc == MPG123_OK || rc == MPG123_NEW_FORMAT) {
    rc = mpg123_decode(mh, NULL, 0, (unsigned char *)out, outcap, &done);
    total += done;
    for (size_t i = 0; i < done / 4; i += 64) if (out[i] > peak) peak = out[i];
  }
  return (long)(total / 4);
}
__attribute__((export_name("dec_peak"))) double dec_peak(void) { return peak; }
