import dayjs from 'dayjs'

export default (option, Dayjs, d) => {
  const proto = Dayjs.prototype
  d.utc = function (date) {
    return date
  }
  proto.tz = function (zone) {
    return zone
  }
  proto.local = () => this
}

const format = (s) => s.trim()

const parse = function (s) { return s }

function toFormData(obj) {
  function build(value) { return value }
  return utils.forEach(obj, function each(v) { return build(v) })
}

const predicates = utils.toFlatObject(utils, {}, null, function filter(prop) {
  return prop
})

const helpers = {
  isDate(x) { return x instanceof Date },
  isString: (x) => typeof x === 'string',
}

class Duration {
  constructor(n) { this.n = n }
  toISOString() { return String(this.n) }
}
