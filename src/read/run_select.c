#include "read/run_select.h"

#include <string.h>

void csim_runs_init(struct csim_runs *rs, uint32_t want, int all)
{
	memset(rs, 0, sizeof(*rs));
	rs->want = all ? 0 : want;
	rs->all = all;
}

enum csim_run_trace_action csim_runs_trace(struct csim_runs *rs)
{
	rs->ntrace++;
	if (rs->want != 0)
		return rs->ntrace == rs->want ? CSIM_RUN_ADD : CSIM_RUN_SKIP;
	/* Default: N is unknown until the end, so each run replaces the one
	   before; only one run's rows are ever held. */
	return rs->all || rs->ntrace == 1 ? CSIM_RUN_ADD : CSIM_RUN_REPLACE;
}

enum csim_run_slot csim_runs_slot_of(const struct csim_runs *rs, uint64_t k)
{
	if (rs->all)
		return CSIM_RUN_SLOT_OWN;
	return rs->want != 0 && k == rs->want ? CSIM_RUN_SLOT_KTH : CSIM_RUN_SLOT_LAST;
}

enum csim_run_slot csim_runs_instr(struct csim_runs *rs)
{
	return csim_runs_slot_of(rs, ++rs->ninstr);
}

enum csim_run_slot csim_runs_basic_info(struct csim_runs *rs, uint64_t offset)
{
	rs->nbasic++;
	if (rs->want != 0 && rs->nbasic == rs->want)
		rs->basic_kth = offset;
	rs->basic_last = offset;
	return csim_runs_slot_of(rs, rs->nbasic);
}

uint64_t csim_runs_block_of(uint64_t count, uint64_t runs, uint64_t run)
{
	if (count == 0)
		return 0;
	return count == runs ? run : count;
}

int csim_runs_settle(const struct csim_runs *rs, const char *path,
		     struct csim_run_choice *choice, struct csim_error *err)
{
	memset(choice, 0, sizeof(*choice));
	choice->runs = rs->ntrace;
	choice->ninstr = rs->ninstr;
	choice->nbasic = rs->nbasic;
	if (rs->want != 0 && rs->want > rs->ntrace)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				      "%s: --run %lu, but the file holds %llu run(s)",
				      path, (unsigned long)rs->want,
				      (unsigned long long)rs->ntrace);
	choice->run = rs->want != 0 ? rs->want : rs->ntrace;
	choice->instr = csim_runs_block_of(rs->ninstr, rs->ntrace, choice->run);
	choice->instr_mismatch = rs->ninstr > 0 && rs->ninstr != rs->ntrace;
	choice->basic = csim_runs_block_of(rs->nbasic, rs->ntrace, choice->run);
	choice->basic_mismatch = rs->nbasic > 0 && rs->nbasic != rs->ntrace;
	if (choice->basic != 0)
		choice->basic_offset = choice->basic == rs->nbasic ? rs->basic_last
								   : rs->basic_kth;
	return CSIM_OK;
}
