#include "proto.h"

uint64_t proto_stream_bytes(uint32_t n_loops, uint32_t n_files, uint64_t file_bytes)
{
	return PROTO_WORD + (uint64_t)n_loops * (PROTO_WORD + (uint64_t)PROTO_WORD * n_files)
	       + (uint64_t)n_loops * file_bytes;
}
