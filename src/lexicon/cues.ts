/**
 * Qualitative cues: the semantic need that is not a kind of place (price, atmosphere, opening time, diet), with
 * the words that say them in English and Chinese (a data table).
 */

export const CUES: Array<{ id: string; en: string[]; zh: string[] }> = [
  { id: 'cheap', en: ['cheap', 'cheapest', 'inexpensive', 'affordable', 'budget', 'low cost', 'good value', 'not too expensive', 'not expensive', 'reasonably priced', 'bargain', 'cheap eats'], zh: ['便宜', '实惠', '平价', '性价比', '划算', '不贵'] },
  { id: 'upscale', en: ['upscale', 'fancy', 'fine dining', 'luxury', 'luxurious', 'high end', 'elegant', 'classy', 'michelin', 'michelin star', 'expensive', 'posh', 'special occasion'], zh: ['高档', '高端', '豪华', '奢华', '米其林', '精致'] },
  { id: 'highly_rated', en: ['highly rated', 'top rated', 'best', 'best rated', 'good', 'great', 'excellent', 'popular', 'well reviewed', 'recommended', 'famous', 'renowned', 'favorite', 'favourite', 'top', 'decent', 'nice', 'tasty', 'delicious', 'authentic', 'legendary', 'must try', 'highest rated', 'well known', 'iconic'], zh: ['好评', '评价高', '评分高', '口碑好', '好吃', '最好', '推荐', '有名', '著名', '网红', '地道', '正宗', '靠谱', '不错', '人气', '评价最高'] },
  { id: 'open_late', en: ['open late', 'late night', 'after midnight', 'open after midnight', '24 hours', '24 hour', '24/7', 'all night', 'overnight', 'open till late', 'open until late'], zh: ['营业到很晚', '深夜', '夜宵', '宵夜', '24小时', '通宵', '晚上营业', '营业到深夜'] },
  { id: 'open_now', en: ['open now', 'currently open', 'still open', 'right now', 'open today', 'open right now'], zh: ['现在营业', '正在营业', '现在开门', '还开着', '现在还开'] },
  { id: 'open_early', en: ['open early', 'early morning', 'early breakfast'], zh: ['一早', '早上营业', '清晨'] },
  { id: 'quiet', en: ['quiet', 'quietly', 'calm', 'peaceful', 'cozy', 'cosy', 'relaxed', 'relaxing', 'not crowded', 'uncrowded', 'laid back'], zh: ['安静', '清静', '舒适', '人少', '不吵', '惬意'] },
  { id: 'lively', en: ['lively', 'buzzing', 'vibrant', 'fun', 'party', 'happening'], zh: ['热闹', '氛围好', '嗨'] },
  { id: 'romantic', en: ['romantic', 'date night', 'on a date', 'first date', 'intimate', 'anniversary'], zh: ['浪漫', '约会', '情侣', '纪念日'] },
  { id: 'family_friendly', en: ['family friendly', 'kid friendly', 'kids', 'children', 'child friendly', 'for families', 'with kids', 'with children', 'stroller'], zh: ['亲子', '带孩子', '适合儿童', '儿童友好', '小孩', '带娃'] },
  { id: 'outdoor_seating', en: ['outdoor seating', 'outdoor', 'outdoors', 'patio', 'terrace', 'rooftop', 'al fresco', 'outside seating', 'sidewalk seating', 'sit outside', 'garden seating'], zh: ['户外', '露天', '天台', '露台', '室外', '户外座位'] },
  { id: 'wifi', en: ['wifi', 'wi fi', 'free wifi', 'internet', 'laptop', 'laptop friendly', 'power outlets', 'work on my laptop'], zh: ['无线网', 'wifi', '上网', '插座', '能办公'] },
  { id: 'wheelchair', en: ['wheelchair', 'wheelchair accessible', 'accessible', 'step free', 'disabled access'], zh: ['无障碍', '轮椅'] },
  { id: 'vegan', en: ['vegan', 'plant based'], zh: ['纯素', '全素'] },
  { id: 'vegetarian', en: ['vegetarian', 'veggie', 'meatless', 'vegetarian options'], zh: ['素食', '素菜'] },
  { id: 'halal', en: ['halal'], zh: ['清真'] },
  { id: 'kosher', en: ['kosher'], zh: ['犹太洁食'] },
  { id: 'gluten_free', en: ['gluten free', 'celiac', 'coeliac'], zh: ['无麸质'] },
  { id: 'dog_friendly', en: ['dog friendly', 'pet friendly', 'dogs allowed', 'bring my dog', 'with my dog'], zh: ['宠物友好', '可带宠物', '可以带狗'] },
  { id: 'takeaway', en: ['takeaway', 'takeout', 'take out', 'to go', 'grab and go', 'pick up'], zh: ['外带', '打包', '自取'] },
  { id: 'delivery', en: ['delivery', 'delivers', 'deliver'], zh: ['外送', '送餐', '配送'] },
  { id: 'live_music', en: ['live music', 'live band', 'live jazz', 'dj'], zh: ['现场音乐', '驻唱', '乐队'] },
  { id: 'view', en: ['view', 'views', 'skyline', 'scenic', 'with a view', 'water view'], zh: ['景观', '江景', '夜景', '风景', '景色', '湖景', '海景'] },
  { id: 'quick', en: ['quick', 'fast', 'in a hurry', 'quickly'], zh: ['快速', '赶时间'] },
  { id: 'healthy', en: ['healthy', 'organic', 'fresh', 'low calorie'], zh: ['健康', '有机', '新鲜'] },
  { id: 'breakfast', en: ['breakfast'], zh: ['早餐', '早饭'] },
  { id: 'brunch', en: ['brunch'], zh: ['早午餐'] },
  { id: 'lunch', en: ['lunch'], zh: ['午餐', '午饭'] },
  { id: 'dinner', en: ['dinner', 'supper'], zh: ['晚餐', '晚饭'] },
  { id: 'group', en: ['large group', 'big group', 'group', 'groups', 'party of'], zh: ['聚餐', '多人', '聚会'] },
  { id: 'new', en: ['new', 'newly opened', 'just opened', 'newest'], zh: ['新开', '新开的'] },
  { id: 'free', en: ['free', 'free entry', 'free admission', 'no cover'], zh: ['免费'] },
  { id: 'reservations', en: ['reservation', 'reservations', 'book a table', 'takes reservations'], zh: ['预订', '订座', '订位'] },
  { id: 'parking_available', en: ['with parking', 'free parking', 'easy parking'], zh: ['可停车', '有停车位', '好停车'] },
];

/** Cues that make the ranking favour semantic fit over distance. */
export const QUALITY_CUES: ReadonlySet<string> = new Set([
  'cheap', 'upscale', 'highly_rated', 'quiet', 'lively', 'romantic', 'family_friendly', 'outdoor_seating', 'view', 'healthy',
]);

