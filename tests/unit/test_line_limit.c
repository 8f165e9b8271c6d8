/* lib/base/line_limit.c: one line a second for a flood, on a given clock. */
#include "t.h"
#include "base/line_limit.h"

#define MS 1000000ull

int main(void)
{
	struct line_limit l = { 0 };
	unsigned others = 99;
	int said, ms;

	CHECK(line_limit_due(&l, 5 * MS, &others) == -1, "nothing yet: nothing due");
	said = line_limit_take(&l, 1000 * MS, &others);
	CHECK(said && others == 0, "the first event is said at once, alone (%u)", others);
	said = line_limit_take(&l, 1200 * MS, &others);
	CHECK(!said, "one 0.2 s later is only counted");
	line_limit_take(&l, 1500 * MS, &others);
	ms = line_limit_due(&l, 1500 * MS, &others);
	CHECK(ms == 501, "two counted: their line due in 0.5 s and a ms (%d)", ms);
	ms = line_limit_due(&l, 1999 * MS, &others);
	CHECK(ms == 2, "1 ms before the second is over: not yet (%d)", ms);
	ms = line_limit_due(&l, 2000 * MS, &others);
	CHECK(ms == 0 && others == 1,
	      "a second after the line: the last counted said, one more beside it (%d, %u)",
	      ms, others);
	CHECK(line_limit_due(&l, 2001 * MS, &others) == -1, "and then nothing waits");
	line_limit_take(&l, 2500 * MS, &others);
	line_limit_take(&l, 2600 * MS, &others);
	said = line_limit_take(&l, 3000 * MS, &others);
	CHECK(said && others == 2,
	      "an event a second after the last line is said, with the 2 counted (%u)", others);
	CHECK(line_limit_due(&l, 9000 * MS, &others) == -1, "their count went with it");
	for (unsigned i = 1; i <= 1000; i++)
		line_limit_take(&l, 3000 * MS + i * MS / 2, &others);
	ms = line_limit_due(&l, 4000 * MS, &others);
	CHECK(ms == 0 && others == 999, "a flood of 1000 in 0.5 s: one line, 999 beside (%u)",
	      others);
	return t_exit();
}
