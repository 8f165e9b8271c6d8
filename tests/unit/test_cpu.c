/*
 * lib/base/cpu.c's list reader as -B takes it: the order given and its
 * repeats kept (the streams of -P take the CPUs round robin), what is
 * not a list refused, a list longer than the room refused.
 */
#include <sched.h>

#include "base/cpu.h"
#include "unit/t.h"

int main(void)
{
	int cpus[CPU_SETSIZE], n;

	n = cpu_list_read("2,0-1,2", cpus, CPU_SETSIZE);
	CHECK(n == 4 && cpus[0] == 2 && cpus[1] == 0 && cpus[2] == 1 && cpus[3] == 2,
	      "'2,0-1,2': 4 CPUs in the order given (%d)", n);
	n = cpu_list_read("", cpus, CPU_SETSIZE);
	CHECK(n == 0, "'': no CPUs (%d)", n);
	CHECK(cpu_list_read("0,", cpus, CPU_SETSIZE) < 0 &&
	      cpu_list_read(",0", cpus, CPU_SETSIZE) < 0 &&
	      cpu_list_read("0-", cpus, CPU_SETSIZE) < 0 &&
	      cpu_list_read("1-0", cpus, CPU_SETSIZE) < 0 &&
	      cpu_list_read("-1", cpus, CPU_SETSIZE) < 0 &&
	      cpu_list_read("0x", cpus, CPU_SETSIZE) < 0 &&
	      cpu_list_read("99999999999999999999", cpus, CPU_SETSIZE) < 0,
	      "'0,', ',0', '0-', '1-0', '-1', '0x', a huge number: not lists");
	CHECK(cpu_list_read("0-3", cpus, 3) < 0 && cpu_list_read("0-2", cpus, 3) == 3 &&
	      cpu_list_read("0,0,0,0", cpus, 3) < 0,
	      "a list longer than the room is refused, one that fits read");
	n = cpu_list_parse("3,1-2,1\n", cpus);
	CHECK(n == 3 && cpus[0] == 1 && cpus[1] == 2 && cpus[2] == 3,
	      "cpu_list_parse: ascending, each once (%d)", n);
	return t_exit();
}
