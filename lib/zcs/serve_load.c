#include <math.h>

#include "zcs/serve_load.h"
#include "app/out.h"
#include "meter/meter.h"

struct serve_load serve_load_of(double load, int ncpus, double secs, uint64_t bytes)
{
	struct serve_load l = {
		.valid = 1,
		.load = load,
		.ncpus = ncpus,
		.demand = bytes < DEMAND_MIN_BYTES ? NAN :
			  service_demand_us_per_kb(load, ncpus, secs, bytes),
	};

	return l;
}

void serve_load_line(const struct serve_load *l)
{
	if (!l->valid)
		return;
	line_num("load_pct", l->load * 100, 1, ", load %.1f%%");
	line_int("ncpus", l->ncpus, " of %lld CPUs");
	line_num("service_demand_us_per_kb", l->demand, 3,
		 isfinite(l->demand) ? ", %.3f us/KB" : ", - us/KB");
}
