/* lib/base/jsonl.c: zcc's -J lines read back, keys by name. */
#include <math.h>
#include <string.h>

#include "base/jsonl.h"
#include "unit/t.h"

static struct jsonl_obj o;

static int parses(const char *line)
{
	char err[128];

	return jsonl_parse(line, &o, err, sizeof(err)) == 0;
}

static void values(void)
{
	const struct jsonl_field *f;

	CHECK(parses("{\"program\":\"zcc\",\"event\":\"sent\",\"bytes\":1048576,"
		     "\"seconds\":-1.5e-3,\"interrupted\":false,\"x\":null,\"ok\":true}\n"),
	      "a sent line parses");
	CHECK(o.n == 7, "7 keys (%d)", o.n);
	CHECK(strcmp(jsonl_str(&o, "event"), "sent") == 0, "a string by name");
	CHECK(jsonl_num(&o, "bytes") == 1048576, "a number by name");
	f = jsonl_get(&o, "seconds");
	CHECK(f && f->num == -1.5e-3 && strcmp(f->text, "-1.5e-3") == 0,
	      "a number keeps its text as written");
	f = jsonl_get(&o, "interrupted");
	CHECK(f && f->type == JSONL_BOOL && !f->boolean, "false");
	CHECK(jsonl_get(&o, "ok")->boolean == 1, "true");
	CHECK(jsonl_get(&o, "x")->type == JSONL_NULL, "null");
	CHECK(isnan(jsonl_num(&o, "event")) && !jsonl_str(&o, "bytes") && !jsonl_get(&o, "nope"),
	      "another type or no key: NAN, NULL");
}

static void strings_and_nesting(void)
{
	CHECK(parses("{\"s\":\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\\ud800x\"}"), "escapes parse");
	CHECK(strcmp(jsonl_str(&o, "s"), "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx") == 0,
	      "escapes: quote, backslash, newline, U+00E9, a surrogate pair, a lone one");
	CHECK(parses("{\"a\":{\"b\":[1,{\"c\":\"}\"},[]],\"d\":{}},\"e\":2}"), "nested parse");
	CHECK(jsonl_get(&o, "a")->type == JSONL_NESTED && jsonl_num(&o, "e") == 2,
	      "nested values are skipped whole, the key after is read");
	CHECK(parses("  {}  "), "an empty object with blanks around");
}

static void refusals(void)
{
	const char *bad[] = {
		"", "junk", "[1]", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":01}",
		"{\"a\":1.}", "{\"a\":NaN}", "{\"a\":tru}", "{\"a\":\"x}", "{\"a\":\"\\x\"}",
		"{\"a\":1} {}", "{\"a\":\"\t\"}", "{a:1}", "{\"a\":[1,]}",
		"{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	};
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(jsonl_parse(bad[i], &o, err, sizeof(err)) < 0 && strstr(err, "column"),
		      "refused: '%s' (%s)", bad[i], err);
}

int main(void)
{
	values();
	strings_and_nesting();
	refusals();
	return t_exit();
}
