/** Word lists for realistic generated values (with a few non-ASCII names on purpose). */
export const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Edsger', 'Barbara', 'Ken', 'Radia', 'Donald', 'Frances', 'Niklaus', 'Zoë', 'José', 'Søren', 'Chloé', 'Hiroshi', 'Amara', 'Leila', 'Mateo'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Dijkstra', 'Liskov', 'Thompson', 'Perlman', 'Knuth', 'Allen', 'Wirth', 'Müller', 'García', 'Kierkegaard', 'Dubois', 'Tanaka', 'Okafor', 'Haddad', 'Rossi'];
export const COMPANY_WORDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Stark', 'Wayne', 'Tyrell', 'Cyberdyne', 'Soylent', 'Wonka'];
export const COMPANY_SUFFIXES = ['Inc', 'LLC', 'GmbH', 'Ltd', 'Labs', 'Group'];
export const TEXT_WORDS = ['invoice', 'renewal', 'priority', 'customer', 'shipping', 'quarterly', 'onboarding', 'refund', 'escalation', 'migration', 'analytics', 'billing', 'support', 'contract', 'premium', 'trial', 'enterprise', 'discount', 'feedback', 'integration', '100%', 'under_score', 'naïve', 'café'];
export const CURRENCIES = ['usd', 'eur', 'gbp', 'jpy', 'cad'];
export const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'NG'];
export const TIMEZONES = ['America/New_York', 'Europe/Berlin', 'Europe/London', 'Asia/Tokyo', 'America/Sao_Paulo', 'Africa/Lagos'];
export const CITIES = ['Springfield', 'Berlin', 'Paris', 'London', 'Tokyo', 'São Paulo', 'Lagos', 'Zürich'];
export const COLORS = ['#e11d48', '#2563eb', '#16a34a', '#ca8a04', '#9333ea', '#0891b2'];
