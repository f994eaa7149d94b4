/** The application queue class the queue probe weaves in the call-cost bench. */
package host.queues.woven;
