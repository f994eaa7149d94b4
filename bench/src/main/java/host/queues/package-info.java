/** Stand-ins for a host application's own queue code, outside io.mech so the queue probe treats them as such. */
package host.queues;
