/*
 * A comma list of values of one kind, checked at the door: names from a
 * table (methods), byte sizes, times, or whole numbers. zcc's and zcs's -M and -b lists
 * are two such lists, crossed into variants (a method and a size each);
 * a list of message sizes or gaps is another. The caller says which
 * option the list came with (for the usage line) and what it holds; this
 * layer knows no option of its own.
 */
#ifndef ZC_APP_OPT_VALUES_H
#define ZC_APP_OPT_VALUES_H

#define OPT_VALUES_MAX 64	/* items in one list */

enum opt_kind { OPT_NAMES, OPT_SIZES, OPT_TIMES, OPT_NUMS };

/* What a list holds. */
struct opt_spec {
	int opt;		/* the option it came with, for the usage line: 'M' */
	enum opt_kind kind;
	const char *what;	/* names: "method", as the usage line says it */
	const char *(*name)(int i);	/* names: the i-th known name; NULL past the last */
	double min, max;	/* sizes in bytes, times in seconds, numbers: the range */
};

/* One item of a list. */
struct opt_value {
	char text[48];		/* as given (cut to fit: for lines only) */
	int index;		/* names: its place in the table of names */
	double value;		/* sizes: bytes; times: seconds; numbers: the number */
	char label[32];		/* the name, or the value as written shortest: 4K, 10ms */
};

/*
 * opt_values - arg's comma list into v[0..max), returns how many. An
 * empty item, one given twice (a size or time also when written two
 * ways: 4K and 4096), an unknown name, a value that does not parse or
 * is out of range, or more than max items: one usage line naming
 * spec->opt, exit 2.
 */
unsigned opt_values(const struct opt_spec *spec, const char *arg, struct opt_value *v,
		    unsigned max);

/* One combination of two lists: a name's and a value's. */
struct opt_pair {
	const struct opt_value *name, *value;
	int with_value;		/* the name takes the value (see opt_pairs) */
	char label[64];		/* "send", or "send/4K" when the values are a list */
};

/*
 * opt_pairs - every name of names[0..nn) with every value of
 * values[0..nv), into p[0..max); returns how many. A name that takes no
 * value (takes(index) is 0; takes NULL: every name takes one) is one
 * pair, with values[0]. The label names the value beside the name when
 * nv > 1. More than max: one usage line naming both options, exit 2.
 */
unsigned opt_pairs(const struct opt_spec *ns, const struct opt_value *names, unsigned nn,
		   const struct opt_spec *vs, const struct opt_value *values, unsigned nv,
		   int (*takes)(int index), struct opt_pair *p, unsigned max);

#endif
