/* lib/wire/tx.c: tx_open and tx_close, the only callers of a method's
 * setup, open_file and cleanup hooks. */
#include <errno.h>
#include <string.h>

#include "base/err.h"
#include "t.h"
#include "wire/tx_internal.h"

static int setups, opens, cleanups, fail_setup, fail_open_at = -1;
static uint32_t cleaned_n;

static int fake_setup(struct tx *t, char *err, size_t errlen)
{
	(void)t;
	setups++;
	if (fail_setup)
		return err_fill(err, errlen, EPERM, "fake: refused");
	return 0;
}

static int fake_open(struct tx *t, struct tx_file *f, char *err, size_t errlen)
{
	(void)t;
	if (opens++ == fail_open_at)
		return err_fill(err, errlen, EIO, "%s", f->name);
	f->map = f;
	return 0;
}

static int fake_send(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	(void)t;
	(void)f;
	(void)err;
	(void)errlen;
	return 0;
}

static void fake_cleanup(struct tx *t, struct tx_file *files, uint32_t n)
{
	(void)t;
	(void)files;
	cleanups++;
	cleaned_n = n;
}

static const struct tx_method fake = {
	.name = "fake", .how = "a test's", .setup = fake_setup, .open_file = fake_open,
	.send_file = fake_send, .cleanup = fake_cleanup,
};

static const struct tx_method bare = { .name = "bare", .how = "no hooks but send",
				       .send_file = fake_send };

static void reset(void)
{
	setups = opens = cleanups = fail_setup = 0;
	fail_open_at = -1;
	cleaned_n = 0;
}

int main(void)
{
	struct tx_file f[3] = { { .name = "a" }, { .name = "b" }, { .name = "c" } };
	struct tx t = { .sock = -1 };
	char err[128] = "";

	CHECK(tx_open(&fake, &t, f, 3, err, sizeof(err)) == 0 && setups == 1 && opens == 3 &&
	      f[0].map && f[2].map, "tx_open: setup once, then open_file per file");
	tx_close(&fake, &t, f, 3);
	CHECK(cleanups == 1 && cleaned_n == 3, "tx_close: cleanup once, given the files");

	reset();
	fail_setup = 1;
	CHECK(tx_open(&fake, &t, f, 3, err, sizeof(err)) < 0 && opens == 0 &&
	      strstr(err, "fake: refused"), "a refused setup: -1, its text, no file opened (%s)",
	      err);
	tx_close(&fake, &t, f, 3);
	CHECK(cleanups == 1, "tx_close after a failed tx_open still cleans up");

	reset();
	fail_open_at = 1;
	CHECK(tx_open(&fake, &t, f, 3, err, sizeof(err)) < 0 && opens == 2 &&
	      strcmp(err, "b: Input/output error") == 0,
	      "a file that fails to open stops there, named (%s)", err);

	reset();
	CHECK(tx_open(&bare, &t, f, 3, err, sizeof(err)) == 0, "no hooks: tx_open has nothing to do");
	tx_close(&bare, &t, f, 3);
	CHECK(setups == 0 && opens == 0 && cleanups == 0, "no hooks: none called");

	/* A -b over the piece a call may move is sent in pieces of it. */
	t.chunk = (size_t)1 << 30;
	CHECK(tx_open(&bare, &t, f, 3, err, sizeof(err)) == 0 && t.chunk == TX_PIECE_MAX,
	      "-b 1G: calls of at most %u bytes", TX_PIECE_MAX);
	t.chunk = 65536;
	CHECK(tx_open(&bare, &t, f, 3, err, sizeof(err)) == 0 && t.chunk == 65536,
	      "-b 64K: calls of 64K");
	return t_exit();
}
