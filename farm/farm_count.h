/* farm_count.h: messages a process sent and dropped, per farm tag,
 * counted by whichever transport carries them (PVM or MPI), so the
 * reports and CSV rows read the same on both. */
#ifndef FARM_COUNT_H
#define FARM_COUNT_H

/* Messages and bytes sent by this process, per tag (0 for foreign). */
long farm_msg_sent(int tag);
long farm_msg_sent_bytes(int tag);
void farm_msg_count_sent(int tag, long bytes);
/* Messages a transport dropped in this process (bad tag or envelope). */
long farm_msg_dropped(void);
void farm_msg_count_dropped(void);

#endif
