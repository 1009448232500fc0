<?php
/**
 * What the widget itself accepts, in one place. These lists are the widget's own (widget/ and contract/ in the
 * clinic-booking repository); a test there reads this file and fails when they drift apart.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The widget's `sections`, `mode` and languages, and the checks every value the plugin writes goes through.
 */
final class Clinic_Booking_Lists {
	/** The widget's sections, in the order it shows them. */
	const SECTIONS = array( 'site', 'treatments', 'dentists', 'booking', 'status' );

	/** The widget's modes: the form in place, or a floating button that opens it. */
	const MODES = array( 'inline', 'button' );

	/** The languages the widget speaks; a tag such as en-GB or de-AT takes its language's words. */
	const LANGUAGES = array( 'en', 'de', 'fr', 'es', 'nl', 'ar' );

	/**
	 * A space or comma list of sections, kept to the widget's names, each once, in the widget's order.
	 *
	 * @param mixed $value What a block, a shortcode or the settings form gave.
	 * @return string The names joined by spaces; '' when none is valid (the widget's own default then).
	 */
	public static function sections( $value ) {
		if ( is_array( $value ) ) {
			$value = implode( ' ', array_map( 'strval', $value ) );
		}
		if ( ! is_string( $value ) ) {
			return '';
		}
		$asked = preg_split( '/[\s,]+/', strtolower( $value ), -1, PREG_SPLIT_NO_EMPTY );
		return implode( ' ', array_values( array_intersect( self::SECTIONS, $asked ) ) );
	}

	/**
	 * One of the widget's modes, or '' (the default, inline).
	 *
	 * @param mixed $value What was given.
	 * @return string
	 */
	public static function mode( $value ) {
		$value = is_string( $value ) ? strtolower( trim( $value ) ) : '';
		return in_array( $value, self::MODES, true ) ? $value : '';
	}

	/**
	 * A language tag whose language the widget speaks ('en-GB', 'fr', 'de-AT'), spelt as BCP 47 does;
	 * '' for anything else (WordPress locales such as en_GB are accepted and written with a hyphen).
	 *
	 * @param mixed $value What was given.
	 * @return string
	 */
	public static function lang( $value ) {
		if ( ! is_string( $value ) ) {
			return '';
		}
		$value = str_replace( '_', '-', trim( $value ) );
		if ( ! preg_match( '/^([A-Za-z]{2})(?:-([A-Za-z]{2}|[0-9]{3}))?$/', $value, $parts ) ) {
			return '';
		}
		$language = strtolower( $parts[1] );
		if ( ! in_array( $language, self::LANGUAGES, true ) ) {
			return '';
		}
		return isset( $parts[2] ) ? $language . '-' . strtoupper( $parts[2] ) : $language;
	}

	/**
	 * The widget's language for a WordPress locale: en_GB gives en-GB, de_DE_formal de-DE; '' when the widget
	 * does not speak it (it then follows the page's lang, and falls back to English).
	 *
	 * @param string $locale A WordPress locale (get_locale()).
	 * @return string
	 */
	public static function lang_for_locale( $locale ) {
		$parts = explode( '_', (string) $locale );
		return self::lang( implode( '-', array_slice( $parts, 0, 2 ) ) );
	}
}
