/*
 * Takedesk's interface to libmpg123, compiled with it to WebAssembly by build.sh (mpg123.wasm). One decoder per
 * module instance. Two ways in:
 *   - feed mode (td_open_feed + td_feed): bytes arrive in order while a download streams;
 *   - memory mode (td_open_memory): the whole file is in this instance's memory, so mpg123 can scan it and seek
 *     sample-accurately, which lets two threads decode the two halves of one file.
 * td_read() decodes up to TD_BLOCK frames and leaves them planar in td_left()/td_right(); td_frames() says how many.
 * Decoding is gapless (LAME/Xing encoder delay and padding removed) and in 32-bit float. td_minmax() gives the
 * least and greatest sample of a range of a mono block (waveform peaks) without the host reading the samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpg123.h>
#include <wasm_simd128.h>

#define TD_BLOCK 8192

static mpg123_handle *mh;
static float interleaved[TD_BLOCK * 2];
static float left[TD_BLOCK];
static float right[TD_BLOCK];
static size_t frames;
static long rate;
static int channels;

struct memory_source {
  const unsigned char *data;
  size_t size;
  size_t position;
};
static struct memory_source source;

/* Set by td_mix before an open: decode the channel mix (L+R)/2 as one channel (see td_mix). */
static int mix;

static int setup(void) {
  int err = MPG123_OK;
  const long *rates;
  size_t count;
  if (mh) mpg123_delete(mh);
  mh = mpg123_new(NULL, &err);
  if (!mh) return err;
  mpg123_param(mh, MPG123_FLAGS, MPG123_GAPLESS | MPG123_FORCE_FLOAT | MPG123_QUIET | (mix ? MPG123_MONO_MIX : 0), 0.);
  mpg123_format_none(mh);
  mpg123_rates(&rates, &count);
  for (size_t i = 0; i < count; i++) mpg123_format(mh, rates[i], MPG123_MONO | MPG123_STEREO, MPG123_ENC_FLOAT_32);
  rate = 0;
  channels = 0;
  frames = 0;
  return MPG123_OK;
}

/*
 * For the next opens: 1 decodes the mix of the two channels as one. Layer III then adds the channels' spectra
 * (halved by the gain) before the IMDCT and the synthesis filter bank, which run once instead of twice; both are
 * linear, so this is (L+R)/2 up to float rounding, at about half the decoding cost: what waveform peaks need.
 */
__attribute__((export_name("td_mix"))) void td_mix(int on) { mix = on; }

/* Allocations for the host: input buffers and the memory-mode file image. */
__attribute__((export_name("td_alloc"))) void *td_alloc(size_t bytes) { return malloc(bytes); }
__attribute__((export_name("td_free"))) void td_free(void *p) { free(p); }

__attribute__((export_name("td_open_feed"))) int td_open_feed(void) {
  int err = setup();
  return err != MPG123_OK ? err : mpg123_open_feed(mh);
}

/* Copies `size` bytes into mpg123's input queue (the caller may reuse `data` at once). */
__attribute__((export_name("td_feed"))) int td_feed(const unsigned char *data, size_t size) {
  return mpg123_feed(mh, data, size);
}

static mpg123_ssize_t memory_read(void *handle, void *buffer, size_t bytes) {
  struct memory_source *s = handle;
  size_t left_bytes = s->size - s->position;
  if (bytes > left_bytes) bytes = left_bytes;
  memcpy(buffer, s->data + s->position, bytes);
  s->position += bytes;
  return (mpg123_ssize_t)bytes;
}

static off_t memory_seek(void *handle, off_t offset, int whence) {
  struct memory_source *s = handle;
  off_t base = whence == SEEK_CUR ? (off_t)s->position : whence == SEEK_END ? (off_t)s->size : 0;
  off_t next = base + offset;
  if (next < 0 || next > (off_t)s->size) return -1;
  s->position = (size_t)next;
  return next;
}

/* Decodes from a file image the host placed at `data` (from td_alloc); it must stay until the next open. */
__attribute__((export_name("td_open_memory"))) int td_open_memory(const unsigned char *data, size_t size) {
  int err = setup();
  if (err != MPG123_OK) return err;
  source.data = data;
  source.size = size;
  source.position = 0;
  err = mpg123_replace_reader_handle(mh, memory_read, memory_seek, NULL);
  return err != MPG123_OK ? err : mpg123_open_handle(mh, &source);
}

/* Reads every frame header once so that length and seeks are exact. */
__attribute__((export_name("td_scan"))) int td_scan(void) { return mpg123_scan(mh); }

/* Length in samples per channel after the gapless trim, or a negative value when unknown. */
__attribute__((export_name("td_length"))) double td_length(void) { return (double)mpg123_length(mh); }

/* Moves to sample `offset` (per channel); returns where decoding resumes, or a negative value. */
__attribute__((export_name("td_seek"))) double td_seek(double offset) {
  return (double)mpg123_seek(mh, (off_t)offset, SEEK_SET);
}

/*
 * Decodes up to TD_BLOCK frames into td_left()/td_right() (td_frames() of them; mono leaves td_right() unused).
 * Returns mpg123's status: MPG123_OK (more to come), MPG123_NEW_FORMAT (td_rate()/td_channels() changed; nothing
 * decoded), MPG123_NEED_MORE (feed mode: give more bytes), MPG123_DONE (end of a memory-mode file), or an error.
 * Frames may come with NEED_MORE and DONE too.
 */
__attribute__((export_name("td_read"))) int td_read(void) {
  size_t bytes = 0;
  /* Mono (the mix for peaks) is decoded straight into left; no format yet means no samples: mpg123 says
     NEW_FORMAT first. */
  int status = channels == 1 ? mpg123_read(mh, left, sizeof left, &bytes)
                             : mpg123_read(mh, interleaved, sizeof interleaved, &bytes);
  if (status == MPG123_NEW_FORMAT) {
    int encoding;
    mpg123_getformat(mh, &rate, &channels, &encoding);
  }
  if (channels == 2) {
    frames = bytes / (2 * sizeof(float));
    for (size_t i = 0; i < frames; i++) {
      left[i] = interleaved[2 * i];
      right[i] = interleaved[2 * i + 1];
    }
  } else {
    frames = bytes / sizeof(float);
  }
  return status;
}

static float range[2];

/*
 * Least and greatest of left[from..to) of the last block (from < to), into td_range()[0] and [1]. Four lanes at a
 * time with wasm's f32x4.min/max, whose rules are JavaScript's Math.min/max (a NaN wins, -0 is less than +0), so
 * the result is what a scan in JavaScript finds. (No infinities as seeds: -ffast-math may assume there are none.)
 */
__attribute__((export_name("td_minmax"))) void td_minmax(int from, int to) {
  v128_t lo = wasm_f32x4_splat(left[from]);
  v128_t hi = lo;
  int i = from + 1;
  for (; i + 8 <= to; i += 8) {
    v128_t a = wasm_v128_load(left + i), b = wasm_v128_load(left + i + 4);
    lo = wasm_f32x4_min(lo, wasm_f32x4_min(a, b));
    hi = wasm_f32x4_max(hi, wasm_f32x4_max(a, b));
  }
  for (; i < to; i++) {
    v128_t a = wasm_f32x4_splat(left[i]);
    lo = wasm_f32x4_min(lo, a);
    hi = wasm_f32x4_max(hi, a);
  }
  lo = wasm_f32x4_min(lo, wasm_i32x4_shuffle(lo, lo, 2, 3, 0, 1));
  lo = wasm_f32x4_min(lo, wasm_i32x4_shuffle(lo, lo, 1, 0, 3, 2));
  hi = wasm_f32x4_max(hi, wasm_i32x4_shuffle(hi, hi, 2, 3, 0, 1));
  hi = wasm_f32x4_max(hi, wasm_i32x4_shuffle(hi, hi, 1, 0, 3, 2));
  range[0] = wasm_f32x4_extract_lane(lo, 0);
  range[1] = wasm_f32x4_extract_lane(hi, 0);
}
__attribute__((export_name("td_range"))) float *td_range(void) { return range; }

__attribute__((export_name("td_frames"))) int td_frames(void) { return (int)frames; }
__attribute__((export_name("td_left"))) float *td_left(void) { return left; }
__attribute__((export_name("td_right"))) float *td_right(void) { return right; }
__attribute__((export_name("td_rate"))) int td_rate(void) { return (int)rate; }
__attribute__((export_name("td_channels"))) int td_channels(void) { return channels; }

/* Text of the last error, for messages. */
__attribute__((export_name("td_error"))) const char *td_error(void) { return mh ? mpg123_strerror(mh) : "no decoder"; }
