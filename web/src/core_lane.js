// One worker of the page's core and its queue of jobs (core_client.js): a job runs at a time,
// in order; a newer job with the same key drops the older ones queued and, where the lane is
// stoppable, stops the one running by replacing the worker.
export class Cancelled extends Error {
  constructor() {
    super('cancelled by a newer request');
    this.name = 'Cancelled';
  }
}

// A module worker when the browser reads the `type` option, else the classic build of the worker.
export function spawnWorker(urls) {
  let moduleWorkers = false;
  const options = { get type() { moduleWorkers = true; return 'module'; } };
  const worker = new Worker(urls.module, options);
  if (moduleWorkers) return worker;
  worker.terminate();
  return new Worker(urls.classic);
}

// One worker and its queue; jobs run one at a time, in order.
export class Lane {
  // start(onFail) makes a worker that will be given the module.
  constructor(start, { stoppable, stats }) {
    Object.assign(this, { start, stoppable, stats });
    this.queue = [];
    this.running = null;
    this.ids = 0;
    this.worker = null;
    this.broken = null;   // why the worker could not start: every job fails with it
  }

  spawn() {
    this.worker?.terminate();
    let started = false;
    const onFail = (message) => this.fail(new Error(message), started);
    const worker = this.start(onFail);
    this.worker = worker;
    worker.onmessage = ({ data }) => {
      if (worker !== this.worker) return;
      if (data.type === 'ready') {
        started = true;
        performance.mark('paleo-worker-ready');
      }
      else if (data.type === 'failed') onFail('the core could not start: ' + data.message);
      else this.receive(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker === this.worker) onFail('the core stopped: ' + (event.message || 'worker error'));
    };
  }

  // The worker died. Once it had started: the job running fails, the others go to a fresh
  // worker. Before: it cannot start at all, and every job fails.
  fail(error, started) {
    const job = this.running;
    this.running = null;
    job?.reject(error);
    if (started) {
      this.spawn();
      this.next();
      return;
    }
    this.broken = error;
    this.worker?.terminate();
    for (const queued of this.queue.splice(0)) queued.reject(error);
  }

  push(job) {
    if (this.broken) {
      job.reject(this.broken);
      return;
    }
    if (job.key != null) this.supersede(job.key);
    this.queue.push(job);
    this.next();
  }

  supersede(key) {
    this.queue = this.queue.filter((job) => {
      if (job.key !== key) return true;
      job.reject(new Cancelled());
      return false;
    });
    if (this.running && this.running.key === key && this.stoppable) {
      const job = this.running;
      this.running = null;
      ++this.stats.stopped;
      this.spawn();
      job.reject(new Cancelled());
      this.next();
    }
  }

  next() {
    if (this.running || !this.queue.length) return;
    const job = this.queue.shift();
    job.id = ++this.ids;
    this.running = job;
    ++this.stats.posted;
    this.worker.postMessage(job.message(job.id));
  }

  receive(data) {
    const job = this.running;
    if (!job || data.id !== job.id) return;  // from a job already given up
    if (data.type === 'progress') {
      job.onProgress?.(data);
      return;
    }
    this.running = null;
    job.resolve(data);
    this.next();
  }
}
